package lab

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/history"
)

// scriptedLocker answers each Acquire with the next error of its script, then grants.
type scriptedLocker struct {
	locks.Locker
	script []error
	calls  int
}

func (s *scriptedLocker) Acquire(_ context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	s.calls++
	if s.calls <= len(s.script) {
		return locks.Lease{}, s.script[s.calls-1]
	}
	return locks.Lease{Key: key, Token: "t", ValidUntil: time.Now().Add(ttl)}, nil
}

// TestALoneHolderAsksAgainOnlyWhenLate: a deadline (the context's, a socket's, or WAIT's
// for a replica, however wrapped) is lateness and asked again, up to LateAttempts; a refusal or any other error
// ends the acquire at once.
func TestALoneHolderAsksAgainOnlyWhenLate(t *testing.T) {
	socket := &os.SyscallError{Syscall: "read", Err: os.ErrDeadlineExceeded}
	late := func(n int) []error {
		out := make([]error, n)
		for i := range out {
			out[i] = fmt.Errorf("node #%d: %w", i, errors.Join(context.DeadlineExceeded, socket))
		}
		return out
	}
	for _, c := range []struct {
		name     string
		script   []error
		granted  bool
		attempts int
	}{
		{"granted at once", nil, true, 1},
		{"late twice, then granted", late(2), true, 3},
		{"a socket's deadline", []error{socket}, true, 2},
		{"a replica's late acknowledgement", []error{fmt.Errorf("%w: 0 of 1 replicas within 100ms", locks.ErrNotReplicated)},
			true, 2},
		{"refused", []error{locks.ErrNotAcquired}, false, 1},
		{"late, then refused", append(late(1), locks.ErrNotAcquired), false, 2},
		{"late every time", late(LateAttempts + 5), false, LateAttempts},
	} {
		l := &scriptedLocker{script: c.script}
		g, err := AcquireAlone(context.Background(), NewClient("A", l, history.NewRecorder()), "k", time.Second, 0)
		if (err == nil) != c.granted || g.Attempts != c.attempts || l.calls != c.attempts {
			t.Errorf("%s: err %v after %d attempts (%d calls), want granted %v after %d", c.name, err, g.Attempts, l.calls,
				c.granted, c.attempts)
		}
	}
}
