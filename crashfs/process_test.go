package crashfs_test

import (
	"errors"
	"os/exec"
	"sync"
	"syscall"
	"testing"

	"github.com/lockbench/lockbench/topologies/supervise"
)

// serverProcess is a server a test runs on the mount, in a process group of its own.
type serverProcess struct {
	cmd      *exec.Cmd
	exited   <-chan struct{}
	killOnce sync.Once
	// workdir, when set, is where children that left the group work (PostgreSQL's
	// call setsid): kill ends them there too, before the disk under them goes.
	workdir string
}

// startServer starts cmd in its own group and kills the group when t ends.
func startServer(t *testing.T, cmd *exec.Cmd) *serverProcess {
	t.Helper()
	exited, err := supervise.StartInGroup(cmd)
	if err != nil {
		t.Fatalf("start %s: %v", cmd.Path, err)
	}
	p := &serverProcess{cmd: cmd, exited: exited}
	t.Cleanup(func() { p.kill(t) })
	return p
}

// kill ends the server at once (SIGKILL: no shutdown, no fsync, as in a power loss):
// the processes working in workdir, then its whole group; it waits for the leader and
// checks none is left; calling it again does nothing.
func (p *serverProcess) kill(t *testing.T) {
	t.Helper()
	p.killOnce.Do(func() {
		if p.workdir != "" {
			supervise.KillWorkingIn(p.workdir)
		}
		if err := syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
			t.Errorf("kill %s: %v", p.cmd.Path, err)
		}
		<-p.exited
		if p.workdir == "" {
			return
		}
		if left := supervise.WorkingIn(p.workdir); len(left) > 0 {
			t.Errorf("processes %v still work in %s after the kill", left, p.workdir)
		}
	})
}
