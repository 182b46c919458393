package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// errInterrupted is a run stopped by a signal; main exits 130 on it, or 128 plus the
// signal's number when an interruptedBy says which.
var errInterrupted = errors.New("interrupted")

// interruptedBy is errInterrupted with the signal that stopped the run.
type interruptedBy struct{ sig syscall.Signal }

func (e interruptedBy) Error() string        { return fmt.Sprintf("interrupted by %v", e.sig) }
func (e interruptedBy) Is(target error) bool { return target == errInterrupted }

// exitCode is the shell's convention for a process ended by the signal: SIGINT 130,
// SIGTERM 143, so that scripts tell a Ctrl-C from a kill.
func (e interruptedBy) exitCode() int { return 128 + int(e.sig) }

// notifyInterrupt is a context that SIGINT or SIGTERM ends, with the signal as its
// cause; stop restores the default handling.
func notifyInterrupt() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-signals:
			cancel(interruptedBy{sig.(syscall.Signal)})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(signals)
		close(done)
		cancel(nil)
	}
}

// interruption is the error a run that ctx stopped returns: the signal's, when a
// signal ended ctx.
func interruption(ctx context.Context) error {
	var by interruptedBy
	if errors.As(context.Cause(ctx), &by) {
		return by
	}
	return errInterrupted
}
