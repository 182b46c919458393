package bench

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/internal/sleep"
	"github.com/lockbench/lockbench/locks"
)

// The ways a cycle waits for a held key (Load.Wait).
const (
	// WaitAttempts is one Acquire at a time with lockbench's backoff between them, for
	// every strategy: what lockbench measured before Waiters (the default, "").
	WaitAttempts = "attempts"
	// WaitNatural is a Waiter's own AcquireWaiting: the library's or the store's wait.
	// The strategies lockbench writes itself (not Waiters) keep lockbench's backoff.
	WaitNatural = "natural"
)

// WaitModes are the valid values of Load.Wait, for flags and configs.
var WaitModes = []string{WaitAttempts, WaitNatural}

// CheckWait names a wait mode that is not one ("" is attempts).
func CheckWait(mode string) error {
	switch mode {
	case "", WaitAttempts, WaitNatural:
		return nil
	}
	return fmt.Errorf("wait = %q: want %s or %s", mode, WaitAttempts, WaitNatural)
}

// waiter is l's own wait when load asks for it and l has one.
func waiter(l locks.Locker, load Load) (locks.Waiter, bool) {
	w, ok := l.(locks.Waiter)
	return w, ok && load.Wait == WaitNatural
}

// Waiting says how a cycle of load on l waits for a held key, for results: the
// library's own words, or lockbench's backoff named as such.
func Waiting(l locks.Locker, load Load) string {
	if w, ok := waiter(l, load); ok {
		return w.Waiting()
	}
	if load.RetryDelay <= 0 {
		return "lockbench backoff: retry at once"
	}
	most := max(load.MaxRetryDelay, load.RetryDelay)
	return fmt.Sprintf("lockbench backoff: retry after %v doubling to %v, jittered", load.RetryDelay, most)
}

// waitNaturally waits for key the way w's library does: AcquireWaiting, and again each
// time the library gives up (a refusal), after lockbench's backoff, so that the wait
// ends in a grant as in attempt mode (a library that never waits, as bsm-redislock's
// default, is then timed as attempt mode times it). Attempts counts the calls; the
// Attempt histogram stays empty, as no single attempt is seen from outside the library.
func waitNaturally(ctx context.Context, w locks.Waiter, load Load, key string, rec *Recorder) (locks.Lease, bool) {
	backoff := load.RetryDelay
	for {
		lease, err := w.AcquireWaiting(ctx, key, load.TTL)
		if err != nil && ctx.Err() != nil {
			rec.CutOffAttempts++ // the locker gave back what the wait may have taken
			return locks.Lease{}, false
		}
		rec.Attempts++
		if err == nil {
			return lease, true
		}
		delay := max(load.RetryDelay, time.Millisecond) // a failing server must not be hammered
		if errors.Is(err, locks.ErrNotAcquired) {
			rec.Refused++ // the library gave up
			delay = jitter(backoff)
			backoff = min(2*backoff, max(load.MaxRetryDelay, load.RetryDelay))
		} else {
			rec.Errors[errorKind(err)]++
		}
		if delay > 0 && !sleep.For(ctx, delay) {
			return locks.Lease{}, false
		}
	}
}
