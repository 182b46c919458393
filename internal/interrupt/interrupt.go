// Package interrupt turns SIGINT and SIGTERM into a cancelled context, so that a run
// stops, keeps what finished, and exits the way shells expect of a signalled process.
package interrupt

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// ErrInterrupted is a run stopped by a signal; the command exits 130 on it, or 128 plus
// the signal's number when a BySignal says which.
var ErrInterrupted = errors.New("interrupted")

// BySignal is ErrInterrupted with the signal that stopped the run.
type BySignal struct{ Sig syscall.Signal }

func (e BySignal) Error() string        { return fmt.Sprintf("interrupted by %v", e.Sig) }
func (e BySignal) Is(target error) bool { return target == ErrInterrupted }

// ExitCode is the shell's convention for a process ended by the signal: SIGINT 130,
// SIGTERM 143, so that scripts tell a Ctrl-C from a kill.
func (e BySignal) ExitCode() int { return 128 + int(e.Sig) }

// Notify is a context that SIGINT or SIGTERM ends, with the signal as its cause; stop
// restores the default handling.
func Notify() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-signals:
			cancel(BySignal{sig.(syscall.Signal)})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(signals)
		close(done)
		cancel(nil)
	}
}

// Of is the error a run that ctx stopped returns: the signal's, when a signal ended ctx.
func Of(ctx context.Context) error {
	var by BySignal
	if errors.As(context.Cause(ctx), &by) {
		return by
	}
	return ErrInterrupted
}
