package supervise

import (
	"os/exec"
	"runtime"
	"sync"
)

// Linux sends a child its parent-death signal when the thread that forked it exits, not
// when the process does. A goroutine that locks its thread and ends while locked takes
// the thread with it (the safety lab's dialer into a container's network namespace
// does), and every server that thread happened to fork was SIGKILLed with it. So every
// server starts from one thread that is locked for the life of the program.
type forkRequest struct {
	cmd  *exec.Cmd
	done chan error
}

var forker = sync.OnceValue(func() chan<- forkRequest {
	requests := make(chan forkRequest)
	go func() {
		runtime.LockOSThread() // never unlocked: this thread lives as long as the program
		for r := range requests {
			r.done <- r.cmd.Start()
		}
	}()
	return requests
})

// startOnSteadyThread is cmd.Start from the thread that never exits, for commands
// started with a parent-death signal.
func startOnSteadyThread(cmd *exec.Cmd) error {
	done := make(chan error, 1)
	forker() <- forkRequest{cmd: cmd, done: done}
	return <-done
}
