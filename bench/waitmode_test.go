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
	firstTakes      time.Duration // the first Acquire's own time (a dial, on a busy machine)
}

func (f *fakeWaiter) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	if f.attempts.Add(1) == 1 {
		time.Sleep(f.firstTakes)
	}
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

// The probe times one-attempt grants of a key of its own, each given back, and only for
// a Waiter waiting naturally: the load's keys stay free and the locker holds nothing after.
func TestProbeTimesGrantedAttemptsOfAnIdleKey(t *testing.T) {
	f := newFakeWaiter()
	load := bench.Load{Clients: 4, Keys: 1, TTL: time.Second, Wait: bench.WaitNatural, KeyPrefix: "p:"}
	if !bench.NeedsAttemptProbe(f, load) {
		t.Fatal("a Waiter waiting naturally: want a probe")
	}
	for _, other := range []struct {
		l    locks.Locker
		load bench.Load
	}{{f, bench.Load{Wait: bench.WaitAttempts}}, {&memLocker{holders: map[string]string{}}, load}} {
		if bench.NeedsAttemptProbe(other.l, other.load) {
			t.Errorf("%T waiting %q: a probe, want none (its attempts are the load's)", other.l, other.load.Wait)
		}
	}
	h, err := bench.ProbeAttempts(context.Background(), f, load)
	if err != nil {
		t.Fatal(err)
	}
	if h.TotalCount() != 200 || f.attempts.Load() != 200 || f.waits.Load() != 0 {
		t.Errorf("%d attempts timed, %d Acquires, %d waits: want 200 one-attempt grants", h.TotalCount(),
			f.attempts.Load(), f.waits.Load())
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.holders) != 0 {
		t.Errorf("after the probe the locker holds %v: every grant must be given back", f.holders)
	}
}

// A first attempt that takes the probe's whole bound still leaves a probe of its minimum
// size (a busy machine's first dial once left a cell with no attempt timed).
func TestProbeTimesItsMinimumPastASlowStart(t *testing.T) {
	f := newFakeWaiter()
	f.firstTakes = 2100 * time.Millisecond
	h, err := bench.ProbeAttempts(context.Background(), f, bench.Load{Clients: 1, Keys: 1, TTL: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if h.TotalCount() != 20 {
		t.Errorf("%d attempts timed after a first one past the bound, want the minimum of 20", h.TotalCount())
	}
}

// An attempt's error is not a cost of one attempt: the probe skips it, and goes on.
func TestProbeSkipsAnAttemptsError(t *testing.T) {
	f := newFakeWaiter()
	f.failNth = 2 // every other Acquire fails
	h, err := bench.ProbeAttempts(context.Background(), f, bench.Load{Clients: 1, Keys: 1, TTL: time.Second})
	if err != nil || h.TotalCount() != 200 {
		t.Errorf("probe on a locker failing every other attempt: %d timed, %v; want 200 timed and no error",
			h.TotalCount(), err)
	}
}

// A probe that meets only errors says so.
func TestProbeReportsAnError(t *testing.T) {
	f := newFakeWaiter()
	f.failNth = 1 // every Acquire fails
	_, err := bench.ProbeAttempts(context.Background(), f, bench.Load{Clients: 1, Keys: 1, TTL: time.Second})
	if err == nil || !strings.Contains(err.Error(), "injected failure") {
		t.Errorf("probe on a failing locker: %v, want its error", err)
	}
}
