package supervise

import (
	"os/exec"
	"syscall"
)

// StartInGroup starts cmd as every server child is started: in its own process group,
// so that a kill reaches what it forks; with a parent-death SIGKILL, so that it dies
// with this program even when this program is SIGKILLed; and tracked by the reaper
// until it exits. exited is closed once the process has been waited for. Other
// SysProcAttr fields (Credential) are kept.
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
	TrackGroup(pid)
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		UntrackGroup(pid)
		close(done)
	}()
	return done, nil
}
