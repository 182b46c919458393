package topologies

import (
	"fmt"
	"os/exec"
	"syscall"
)

// GroupProcess is a server process started by StartGroupProcess, and what faults do to
// its whole group. The zero value is a process never started. It holds no lock: the
// node that owns it guards it with its own.
type GroupProcess struct {
	cmd    *exec.Cmd
	exited <-chan struct{}
}

// StartGroupProcess starts cmd as StartInGroup does.
func StartGroupProcess(cmd *exec.Cmd) (GroupProcess, error) {
	exited, err := StartInGroup(cmd)
	if err != nil {
		return GroupProcess{}, err
	}
	return GroupProcess{cmd: cmd, exited: exited}, nil
}

// Running: started and not yet waited for.
func (p GroupProcess) Running() bool {
	if p.cmd == nil {
		return false
	}
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// Pid is the process id while it runs, else 0.
func (p GroupProcess) Pid() int {
	if !p.Running() {
		return 0
	}
	return p.cmd.Process.Pid
}

// Exited is closed once the process has been waited for (nil if never started).
func (p GroupProcess) Exited() <-chan struct{} { return p.exited }

// Kill SIGKILLs the group and waits until the process is reaped; nothing if never started.
func (p GroupProcess) Kill() {
	if p.cmd == nil {
		return
	}
	if p.Running() { // a reaped process's pid may belong to someone else by now
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	}
	<-p.exited
}

// Stop SIGSTOPs the group and returns once the process shows stopped.
func (p GroupProcess) Stop() error {
	pid := p.cmd.Process.Pid
	if err := syscall.Kill(-pid, syscall.SIGSTOP); err != nil {
		return fmt.Errorf("SIGSTOP: %w", err)
	}
	WaitStopped(pid)
	return nil
}

// Continue SIGCONTs the group.
func (p GroupProcess) Continue() error {
	if err := syscall.Kill(-p.cmd.Process.Pid, syscall.SIGCONT); err != nil {
		return fmt.Errorf("SIGCONT: %w", err)
	}
	return nil
}
