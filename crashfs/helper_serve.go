package crashfs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Every program that links crashfs can be its helper: the helper is this program (or
// the build reexec names) run again. Test binaries run inits before TestMain.
func init() { ServeIfAsked() }

// ServeIfAsked serves one mount and exits if this process was started as its helper (by
// MountInHelper); otherwise it returns at once. Calling it again is harmless.
func ServeIfAsked() {
	raw, asked := os.LookupEnv(serveEnv)
	if !asked {
		return
	}
	if err := serve(raw, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "crashfs helper:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// serve mounts, answers orders until unmount, and unmounts when its input ends: the
// process that asked for the mount died, and the mount must not outlive it.
func serve(raw string, in io.Reader, out io.Writer) error {
	// A terminal's interrupt or a signal to the process group is for the parent, which
	// stops the servers on the mount before it unmounts.
	signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	enc := json.NewEncoder(out)
	var spec serveSpec
	if err := json.Unmarshal([]byte(raw), &spec); err != nil {
		return errors.Join(fmt.Errorf("%s: %w", serveEnv, err), enc.Encode(answer{Error: serveEnv + ": " + err.Error()}))
	}
	fs, err := Mount(spec.Backing, spec.Mountpoint)
	if err != nil {
		return errors.Join(err, enc.Encode(answer{Error: err.Error()}))
	}
	if err := enc.Encode(answer{}); err != nil {
		return errors.Join(err, fs.Unmount())
	}
	dec := json.NewDecoder(in)
	for {
		var o order
		if err := dec.Decode(&o); err != nil {
			return errors.Join(ignoreEOF(err), fs.Unmount())
		}
		var a answer
		switch o.Do {
		case "crash":
			r, err := fs.Crash()
			a = answer{Report: r, Error: errorText(err)}
		case "unmount":
			return enc.Encode(answer{Error: errorText(fs.Unmount())})
		default:
			a.Error = fmt.Sprintf("crashfs helper: no order %q (crash, unmount)", o.Do)
		}
		if err := enc.Encode(a); err != nil {
			return errors.Join(err, fs.Unmount())
		}
	}
}

func errorText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func ignoreEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}
