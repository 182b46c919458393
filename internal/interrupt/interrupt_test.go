package interrupt

import (
	"context"
	"errors"
	"syscall"
	"testing"
)

// The error names the signal when one ended the run, and is ErrInterrupted either way.
func TestOfSaysTheSignal(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(BySignal{syscall.SIGTERM})
	err := Of(ctx)
	var by BySignal
	if !errors.As(err, &by) || by.ExitCode() != 143 || !errors.Is(err, ErrInterrupted) {
		t.Errorf("%v: want SIGTERM, exit 143, and ErrInterrupted", err)
	}
	plain, stop := context.WithCancel(context.Background())
	stop()
	if err := Of(plain); err != ErrInterrupted {
		t.Errorf("a context cancelled without a signal: %v, want ErrInterrupted", err)
	}
}
