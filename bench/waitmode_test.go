package bench_test

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockbench/lockbench/bench"
	"github.com/lockbench/lockbench/locks"
)

// fakeWaiter is memLocker with a wait of its own: it counts the calls of each kind.
type fakeWaiter struct {
	*memLocker
	attempts, waits atomic.Int64
}

func (f *fakeWaiter) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	f.attempts.Add(1)
	return f.memLocker.Acquire(ctx, key, ttl)
}

// AcquireWaiting polls the table until the key is free: the library's own loop.
func (f *fakeWaiter) AcquireWaiting(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	f.waits.Add(1)
	for {
		lease, err := f.memLocker.Acquire(ctx, key, ttl)
		if !errors.Is(err, locks.ErrNotAcquired) {
			return lease, err
		}
		if ctx.Err() != nil {
			return locks.Lease{}, ctx.Err()
		}
		runtime.Gosched()
	}
}

func (f *fakeWaiter) Waiting() string { return "fake: polls the table" }

func newFakeWaiter() *fakeWaiter {
	return &fakeWaiter{memLocker: &memLocker{holders: map[string]string{}}}
}

func TestNaturalWaitCallsTheWaitersOwnWait(t *testing.T) {
	f := newFakeWaiter()
	load := bench.Load{Clients: 4, Keys: 1, TTL: time.Second, Wait: bench.WaitNatural}
	res, err := bench.RunClosed(context.Background(), f, load, bench.Countdown(200))
	if err != nil {
		t.Fatal(err)
	}
	if res.Granted != 200 || f.waits.Load() != 200 {
		t.Errorf("granted %d with %d AcquireWaiting calls, want 200 of each: one wait per cycle", res.Granted, f.waits.Load())
	}
	if f.attempts.Load() != 0 || res.Attempt.TotalCount() != 0 {
		t.Errorf("natural mode made %d one-attempt Acquires, recorded %d attempts: want none", f.attempts.Load(), res.Attempt.TotalCount())
	}
	if res.AcquireWait.TotalCount() != 200 {
		t.Errorf("AcquireWait has %d waits, want one per cycle", res.AcquireWait.TotalCount())
	}
	if got := bench.Waiting(f, load); got != "fake: polls the table" {
		t.Errorf("Waiting = %q, want the waiter's own words", got)
	}
}

func TestAttemptModeNeverCallsTheWaitersWait(t *testing.T) {
	f := newFakeWaiter()
	load := bench.Load{Clients: 4, Keys: 1, TTL: time.Second, RetryDelay: time.Microsecond, MaxRetryDelay: time.Millisecond}
	res, err := bench.RunClosed(context.Background(), f, load, bench.Countdown(100))
	if err != nil {
		t.Fatal(err)
	}
	if f.waits.Load() != 0 || res.Attempt.TotalCount() != res.Attempts || res.Attempts < 100 {
		t.Errorf("attempt mode: %d waits, %d attempts recorded of %d: want no wait, every attempt timed",
			f.waits.Load(), res.Attempt.TotalCount(), res.Attempts)
	}
	if got := bench.Waiting(f, load); !strings.HasPrefix(got, "lockbench backoff: retry after 1µs doubling to 1ms") {
		t.Errorf("Waiting = %q, want lockbench's backoff named", got)
	}
}

// A locker lockbench writes itself (no Waiter) keeps lockbench's backoff in natural mode.
func TestNaturalWaitKeepsLockbenchsBackoffForOtherLockers(t *testing.T) {
	m := &memLocker{holders: map[string]string{}}
	load := bench.Load{Clients: 4, Keys: 1, TTL: time.Second, Wait: bench.WaitNatural}
	res, err := bench.RunClosed(context.Background(), m, load, bench.Countdown(100))
	if err != nil {
		t.Fatal(err)
	}
	if res.Granted != 100 || res.Attempt.TotalCount() != res.Attempts {
		t.Errorf("granted %d, %d attempts timed of %d: want attempt mode's recording", res.Granted, res.Attempt.TotalCount(), res.Attempts)
	}
	if got := bench.Waiting(m, load); got != "lockbench backoff: retry at once" {
		t.Errorf("Waiting = %q, want lockbench's backoff named", got)
	}
}

func TestAnUnknownWaitModeIsRefused(t *testing.T) {
	load := bench.Load{Clients: 1, Keys: 1, TTL: time.Second, Wait: "patient"}
	if err := load.Validate(); err == nil || !strings.Contains(err.Error(), "patient") {
		t.Errorf("Validate with wait %q: %v, want an error naming it", load.Wait, err)
	}
}

// A closed loop reports its clients' fairness; an even split is not required (the
// scheduler shares the budget), only that every client is counted and the index is one.
func TestClosedLoopReportsFairnessOverItsClients(t *testing.T) {
	f := newFakeWaiter()
	load := bench.Load{Clients: 4, Keys: 1, TTL: time.Second, Wait: bench.WaitNatural}
	res, err := bench.RunClosed(context.Background(), f, load, bench.Countdown(200))
	if err != nil {
		t.Fatal(err)
	}
	if fr := res.Fairness; fr.Clients != 4 || fr.Jain < 0.25 || fr.Jain > 1 || fr.WorstP99 < 0 {
		t.Errorf("fairness %+v: want 4 clients and Jain's index within [1/4, 1]", fr)
	}
}
