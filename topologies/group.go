package topologies

import (
	"os/exec"
	"syscall"

	"github.com/lockbench/lockbench/topologies/portlease"
)

// StartInGroup starts cmd as the process provider starts redis-server, for providers in
// other packages (PostgreSQL): in its own process group, so that a kill reaches what it
// forks; with a parent-death SIGKILL, so that it dies with this program even when this
// program is SIGKILLed; and tracked by the reaper until it exits. exited is closed once
// the process has been waited for. Other SysProcAttr fields (Credential) are kept.
func StartInGroup(cmd *exec.Cmd) (exited <-chan struct{}, err error) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	if err := startOnSteadyThread(cmd); err != nil { // the signal follows the forking thread
		return nil, err
	}
	pid := cmd.Process.Pid
	trackGroup(pid)
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		untrackGroup(pid)
		close(done)
	}()
	return done, nil
}

// TrackGroup has the reaper kill process group pgid on SIGINT/SIGTERM (and ReapAll), for
// server processes that leave their parent's group (PostgreSQL's backends call setsid)
// and would otherwise outlive a paused server. Forget it with UntrackGroup.
func TrackGroup(pgid int) { trackGroup(pgid) }

// UntrackGroup undoes TrackGroup.
func UntrackGroup(pgid int) { untrackGroup(pgid) }

// OnReap has the reaper run cleanup after it has killed every tracked group and before
// it removes the tracked dirs (PostgreSQL leaves a System V shared memory segment that
// only its data dir names). cleanup runs with the reaper locked: it must not call into
// this package. forget unregisters it.
func OnReap(cleanup func()) (forget func()) {
	reaper.Lock()
	defer reaper.Unlock()
	id := reaper.nextID
	reaper.nextID++
	reaper.cleanups[id] = cleanup
	installReaperLocked()
	return func() {
		reaper.Lock()
		defer reaper.Unlock()
		delete(reaper.cleanups, id)
	}
}

// FreePort leases a free loopback port to this process (portlease: no other lockbench
// process nor outgoing connection takes it) until ReleasePort. A program outside
// lockbench may still bind it first: callers retry on "address in use".
func FreePort() (int, error) { return portlease.Take() }

// ReleasePort ends the lease FreePort took, once no server of ours will bind it again.
func ReleasePort(port int) { portlease.Release(port) }
