package topologies

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/clocks/faketime"
)

// errPortTaken says the server could not bind its port: another program won the race for it.
var errPortTaken = errors.New("port already in use")

// processNode is one redis-server (or sentinel) process in its own process group.
type processNode struct {
	name     string
	role     Role
	bin      string
	dir      string // this node's own dir: config, log, data
	port     int
	sentinel bool
	env      []string       // extra environment, e.g. a fake-time preload
	skew     *faketime.Node // drives this node's libfaketime; nil keeps true time

	mu      sync.Mutex
	cmd     *exec.Cmd
	exited  chan struct{} // closed when cmd has been waited for
	paused  bool
	stopped bool // Close was called: never start again
}

func (n *processNode) Name() string { return n.name }
func (n *processNode) Role() Role   { return n.role }
func (n *processNode) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(n.port)) }
func (n *processNode) confPath() string {
	return filepath.Join(n.dir, "server.conf")
}
func (n *processNode) logPath() string { return filepath.Join(n.dir, "server.log") }

func (n *processNode) Running() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.runningLocked()
}

func (n *processNode) runningLocked() bool {
	if n.cmd == nil {
		return false
	}
	select {
	case <-n.exited:
		return false
	default:
		return true
	}
}

// start launches the process and waits until it answers PING.
func (n *processNode) start(ctx context.Context) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.stopped {
		return fmt.Errorf("%s: topology is closed", n.name)
	}
	if n.runningLocked() {
		return fmt.Errorf("%s: already running", n.name)
	}
	args := []string{n.confPath()}
	if n.sentinel {
		args = append(args, "--sentinel")
	}
	startLog := MarkStartLog(n.logPath())
	cmd := exec.Command(n.bin, args...)
	cmd.Dir = n.dir
	cmd.Env = append(os.Environ(), n.env...)
	if n.skew != nil {
		cmd.Env = append(cmd.Env, n.skew.Env()...)
	}
	// Own process group, so a kill reaches anything it forks (BGSAVE children);
	// Pdeathsig, so the server dies with us even when we are SIGKILLed.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := startOnSteadyThread(cmd); err != nil {
		return fmt.Errorf("%s: start %s: %w", n.name, n.bin, err)
	}
	trackGroup(cmd.Process.Pid)
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		untrackGroup(cmd.Process.Pid)
		close(exited)
	}()
	n.cmd, n.exited, n.paused = cmd, exited, false

	if err := waitForPing(ctx, n.Addr(), exited); err != nil {
		n.killLocked()
		if startLog.PortTaken() {
			return fmt.Errorf("%s on %s: %w", n.name, n.Addr(), errPortTaken)
		}
		return fmt.Errorf("%s on %s did not come up: %w; log: %s", n.name, n.Addr(), err, startLog.Tail(600))
	}
	if n.skew != nil {
		if err := n.skew.Calibrate(func() (time.Time, error) { return serverTime(ctx, n.Addr()) }); err != nil {
			n.killLocked()
			return fmt.Errorf("%s: %w", n.name, err)
		}
	}
	return nil
}

// serverTime is the server's wall clock (TIME).
func serverTime(ctx context.Context, addr string) (time.Time, error) {
	c := adminClient(addr)
	defer c.Close()
	return c.Time(ctx).Result()
}

func (n *processNode) signal(sig syscall.Signal) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.runningLocked() {
		return fmt.Errorf("%s: not running", n.name)
	}
	if err := syscall.Kill(-n.cmd.Process.Pid, sig); err != nil {
		return fmt.Errorf("%s: signal %v: %w", n.name, sig, err)
	}
	return nil
}

func (n *processNode) Pause() error {
	if err := n.signal(syscall.SIGSTOP); err != nil {
		return err
	}
	n.mu.Lock()
	n.paused = true
	n.mu.Unlock()
	return nil
}

func (n *processNode) Resume() error {
	if err := n.signal(syscall.SIGCONT); err != nil {
		return err
	}
	n.mu.Lock()
	n.paused = false
	n.mu.Unlock()
	return nil
}

func (n *processNode) Kill() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.runningLocked() {
		return fmt.Errorf("%s: not running", n.name)
	}
	n.killLocked()
	return nil
}

// killLocked SIGKILLs the process group and waits until the process is reaped.
func (n *processNode) killLocked() {
	if n.cmd == nil {
		return
	}
	_ = syscall.Kill(-n.cmd.Process.Pid, syscall.SIGKILL)
	<-n.exited
	n.paused = false
}

func (n *processNode) Restart(ctx context.Context, mode RestartMode) error {
	n.mu.Lock()
	if mode == RestartWithSnapshot && n.runningLocked() && !n.paused {
		if err := adminDo(ctx, n.Addr(), "SAVE"); err != nil {
			n.mu.Unlock()
			return fmt.Errorf("%s: snapshot before restart: %w", n.name, err)
		}
	}
	if n.runningLocked() {
		n.killLocked()
	}
	if mode == RestartEmpty {
		for _, f := range []string{"dump.rdb", "appendonlydir"} {
			if err := os.RemoveAll(filepath.Join(n.dir, f)); err != nil {
				n.mu.Unlock()
				return fmt.Errorf("%s: forget data: %w", n.name, err)
			}
		}
	}
	n.mu.Unlock()
	return n.start(ctx)
}

// stop kills the process for good.
func (n *processNode) stop() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.stopped = true
	if n.runningLocked() {
		n.killLocked()
	}
	if n.skew != nil {
		n.skew.Close()
	}
	ReleasePort(n.port)
}

// Clock is the node's model clock, or nil when it keeps true time.
func (n *processNode) Clock() *clocks.NodeClock {
	if n.skew == nil {
		return nil
	}
	return n.skew.Clock()
}

// waitForPing polls addr until it answers PING, the process exits, or ctx ends.
func waitForPing(ctx context.Context, addr string, exited <-chan struct{}) error {
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		pingCtx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		err := adminDo(pingCtx, addr, "PING")
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-exited:
			return errors.New("process exited")
		case <-ctx.Done():
			return fmt.Errorf("%w (last: %v)", ctx.Err(), err)
		case <-tick.C:
		}
	}
}
