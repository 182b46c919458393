package crashfs

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"

	"github.com/lockbench/lockbench/internal/reexec"
)

// Helper is a mount served by a process of its own (reexec.Executable, which serves when
// its environment asks: see ServeIfAsked): a raced test binary then serves no FUSE
// request under the race detector, and the mount ends cleanly when the process that
// made it dies.
type Helper struct {
	mountpoint string

	mu     sync.Mutex // one request at a time
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *json.Decoder
	closed bool
}

// order is the parent's request; answer the helper's reply (and its first line, once mounted).
type (
	order struct {
		Do string `json:"do"` // crash or unmount
	}
	answer struct {
		Report Report `json:"report"`
		Error  string `json:"error,omitempty"`
	}
	serveSpec struct {
		Backing    string `json:"backing"`
		Mountpoint string `json:"mountpoint"`
	}
)

// serveEnv carries, in a helper's environment, the directories it serves (JSON serveSpec).
const serveEnv = "LOCKBENCH_CRASHFS_SERVE"

// MountInHelper starts a helper that mounts backing at mountpoint (as Mount does) and
// returns once it is mounted.
func MountInHelper(backing, mountpoint string) (*Helper, error) {
	exe, err := reexec.Executable()
	if err != nil {
		return nil, fmt.Errorf("crashfs: %w", err)
	}
	spec, err := json.Marshal(serveSpec{Backing: backing, Mountpoint: mountpoint})
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), serveEnv+"="+string(spec))
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("crashfs: start its helper %s: %w", exe, err)
	}
	h := &Helper{mountpoint: mountpoint, cmd: cmd, in: in, out: json.NewDecoder(bufio.NewReader(out))}
	var first answer
	if err := h.out.Decode(&first); err != nil || first.Error != "" {
		in.Close() // a helper that mounted nothing exits at the end of its input
		werr := cmd.Wait()
		if first.Error != "" {
			return nil, errors.New(first.Error)
		}
		return nil, fmt.Errorf("crashfs: its helper (%s) ended before it mounted %s: %w", exe, mountpoint,
			errors.Join(err, werr))
	}
	return h, nil
}

// Crash crashes the mount in the helper, as FS.Crash does, and returns its report.
func (h *Helper) Crash() (Report, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return Report{}, ErrUnmounted
	}
	a, err := h.ask("crash")
	return a.Report, err
}

// Unmount ends the mount, as FS.Unmount does, and the helper; calling it again does nothing.
func (h *Helper) Unmount() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil
	}
	h.closed = true
	_, err := h.ask("unmount")
	err = errors.Join(err, h.in.Close())
	if werr := h.cmd.Wait(); werr != nil {
		err = errors.Join(err, fmt.Errorf("crashfs helper: %w", werr))
	}
	return err
}

// ask sends one order and reads its answer; the caller holds h.mu.
func (h *Helper) ask(do string) (answer, error) {
	var a answer
	if err := json.NewEncoder(h.in).Encode(order{Do: do}); err != nil {
		return a, fmt.Errorf("crashfs helper (pid %d): send %s: %w", h.cmd.Process.Pid, do, err)
	}
	if err := h.out.Decode(&a); err != nil {
		return a, fmt.Errorf("crashfs helper (pid %d): no answer to %s: %w", h.cmd.Process.Pid, do, err)
	}
	if a.Error != "" {
		return a, errors.New(a.Error)
	}
	return a, nil
}

// Mountpoint is where the file system is mounted.
func (h *Helper) Mountpoint() string { return h.mountpoint }

// Pid is the helper's process id.
func (h *Helper) Pid() int { return h.cmd.Process.Pid }
