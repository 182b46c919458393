package bench

import (
	"context"
	"errors"
	"fmt"
	"github.com/lockbench/lockbench/internal/sleep"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/lockbench/lockbench/locks"
)

// Load is who asks for which key and how they behave.
type Load struct {
	Clients int
	// Keys is how many distinct keys the clients share: 1 makes every client fight for
	// one key; Keys = Clients gives each client its own.
	Keys int
	TTL  time.Duration
	// Hold is the time spent inside the lock before releasing it.
	Hold time.Duration
	// RetryDelay is the pause after a refused attempt (0: retry at once). It doubles
	// with each further refusal in a row, up to MaxRetryDelay (default: no growth),
	// drawn at random from its upper half so that contenders drift apart.
	RetryDelay    time.Duration
	MaxRetryDelay time.Duration
	// KeyPrefix separates the keys of one run from another's on a shared server.
	KeyPrefix string
	// Intervals, when set, also keeps the recording cut into consecutive pieces.
	Intervals Intervals
	// NoWarm skips the warm-up of the locker's connections before the clock starts
	// (locks.Warm): the caller warmed them already, or means to measure them cold.
	NoWarm bool
	// FirstClient and AllClients place these clients in a load shared with other
	// processes: they are global clients [FirstClient, FirstClient+Clients) of
	// AllClients (0: Clients), so that keys (global % Keys) contend across processes.
	FirstClient int
	AllClients  int
	// Wait is how a cycle waits for a held key: WaitAttempts ("" too) or WaitNatural.
	Wait string
	// Spread, when set, draws each cycle's key or hold (see Spread); Keys may exceed
	// the clients when keys are drawn.
	Spread *Spread
}

// allClients is the size of the whole load these clients are part of.
func (l Load) allClients() int { return max(l.AllClients, l.Clients) }

// Validate names the first field that cannot run.
func (l Load) Validate() error {
	switch {
	case l.Clients < 1:
		return fmt.Errorf("clients = %d: must be >= 1", l.Clients)
	case l.Keys < 1:
		return fmt.Errorf("keys = %d: must be >= 1", l.Keys)
	case l.Keys > l.allClients() && (l.Spread == nil || l.Spread.Keys == nil):
		return fmt.Errorf("keys = %d: must be <= clients (%d)", l.Keys, l.allClients())
	case l.FirstClient < 0 || l.FirstClient+l.Clients > l.allClients():
		return fmt.Errorf("clients [%d, %d): outside the %d clients of the whole load", l.FirstClient, l.FirstClient+
			l.Clients, l.allClients())
	case l.TTL <= 0:
		return fmt.Errorf("ttl = %v: must be > 0", l.TTL)
	case l.Hold < 0:
		return fmt.Errorf("hold = %v: must be >= 0", l.Hold)
	case l.RetryDelay < 0:
		return fmt.Errorf("retry delay = %v: must be >= 0", l.RetryDelay)
	case l.MaxRetryDelay != 0 && l.MaxRetryDelay < l.RetryDelay:
		return fmt.Errorf("max retry delay = %v: must be >= retry delay (%v)", l.MaxRetryDelay, l.RetryDelay)
	}
	if l.Spread != nil {
		if err := l.Spread.check(l); err != nil {
			return err
		}
	}
	return CheckWait(l.Wait)
}

// key is the key of local client number client: by its global index, so that every
// process sharing a load maps a global client to the same key.
func (l Load) key(client int) string {
	return l.keyNamed((l.FirstClient + client) % l.Keys)
}

// keyNamed is key number i of the load's keys.
func (l Load) keyNamed(i int) string {
	return fmt.Sprintf("%slock:%d", l.KeyPrefix, i)
}

// Result is a merged recording of one run.
type Result struct {
	*Recorder
	// Started is when the clock started, after the warm-up: nothing before it is timed.
	Started time.Time
	Elapsed time.Duration
	// Intervals are the run's consecutive pieces when Load.Intervals asked for them.
	Intervals []Result
	// Fairness is how evenly a closed loop's clients were served; zero for an open loop,
	// whose workers serve whichever request arrives (no client asks for itself).
	Fairness Fairness
}

// CyclesPerSecond is the rate of completed acquire-hold-release cycles.
func (r Result) CyclesPerSecond() float64 { return perSecond(r.Granted, r.Elapsed) }

// perSecond is n over elapsed, 0 for a run that took no time.
func perSecond(n int64, elapsed time.Duration) float64 {
	if elapsed <= 0 {
		return 0
	}
	return float64(n) / elapsed.Seconds()
}

// RefusedPerCycle is contended refusals per completed cycle.
func (r Result) RefusedPerCycle() float64 {
	if r.Granted == 0 {
		return 0
	}
	return float64(r.Refused) / float64(r.Granted)
}

// Countdown is a budget of n cycles shared by every client, for b.N.
func Countdown(n int) func() bool {
	var left atomic.Int64
	left.Store(int64(n))
	return func() bool { return left.Add(-1) >= 0 }
}

// RunClosed runs a closed loop: each client acquires (retrying refusals), holds,
// releases, and starts again while another() grants a cycle and ctx lives.
func RunClosed(ctx context.Context, l locks.Locker, load Load, another func() bool) (Result, error) {
	if err := load.Validate(); err != nil {
		return Result{}, err
	}
	if err := warm(ctx, l, load); err != nil {
		return Result{}, err
	}
	parts := newRecorderSplit(load.Intervals)
	tallies := parts.tallies(load.Clients, NewRecorder)
	shares := newShares(load.Clients)
	keys := load.turns()
	start := parts.begin()
	wait := startClients(tallies, func(c int, t *tally[*Recorder]) {
		next := load.draws(c)
		for ctx.Err() == nil && another() {
			now := time.Now()
			t.moveTo(now)
			key, hold := next()
			if waited, done := cycle(ctx, l, load, keys, request{key, hold, now}, t.rec); done {
				shares[c].add(waited)
			}
		}
	})
	wait()
	res := lockResult(parts, time.Since(start))
	res.Fairness = fairnessOf(shares) // every client of a closed loop asks alike: equal demand
	return res, nil
}

// cycle is one acquire-hold-release: the lock is waited for as load.Wait says (a
// Waiter's own wait, or attempts with lockbench's backoff) until granted or ctx ends.
// Acquire and cycle latencies count from req.start: now in a closed loop, the intended
// start in an open one. What ctx's end cuts short (an attempt, a hold) is counted apart
// and kept out of every histogram: its latency is the deadline's.
// It returns a completed cycle's wait from req.start to the grant.
func cycle(ctx context.Context, l locks.Locker, load Load, keys *turns, req request,
	rec *Recorder) (time.Duration, bool) {
	var lease locks.Lease
	var granted bool
	stopWaiting := keys.wait(req.key)
	if w, ok := waiter(l, load); ok {
		lease, granted = waitNaturally(ctx, w, load, req.key, rec)
	} else {
		lease, granted = attempt(ctx, l, load, req.key, rec)
	}
	grantedAt := time.Now()
	if granted {
		if gap, ok := keys.granted(req.key, grantedAt); ok {
			record(rec.Handoff, gap)
		}
	}
	stopWaiting()
	if !granted {
		return 0, false
	}
	return holdAndRelease(ctx, l, keys, req, lease, grantedAt, rec)
}

// request is one cycle's ask: its key, how long to hold it, and when it started (a
// closed loop's now, an open loop's intended start).
type request struct {
	key   string
	hold  time.Duration
	start time.Time
}

// attempt retries refused and failed attempts with lockbench's backoff until granted
// or ctx ends, recording each attempt's cost.
func attempt(ctx context.Context, l locks.Locker, load Load, key string, rec *Recorder) (locks.Lease, bool) {
	backoff := load.RetryDelay
	for {
		attemptStart := time.Now()
		lease, err := l.Acquire(ctx, key, load.TTL)
		if err != nil && ctx.Err() != nil {
			// The locker gave back what the attempt may have taken (see locks.Locker).
			rec.CutOffAttempts++
			return locks.Lease{}, false
		}
		record(rec.Attempt, time.Since(attemptStart))
		rec.Attempts++
		if err == nil {
			return lease, true
		}
		delay := load.RetryDelay
		if errors.Is(err, locks.ErrNotAcquired) {
			rec.Refused++
			delay = jitter(backoff)
			backoff = min(2*backoff, max(load.MaxRetryDelay, load.RetryDelay))
		} else {
			rec.Errors[errorKind(err)]++
			delay = max(delay, time.Millisecond) // a failing server must not be hammered
		}
		if delay > 0 && !sleep.For(ctx, delay) {
			return locks.Lease{}, false
		}
	}
}

// holdAndRelease records the wait from req.start to the grant at grantedAt, holds for
// req.hold, and releases; it returns the wait when the cycle completed.
func holdAndRelease(ctx context.Context, l locks.Locker, keys *turns, req request, lease locks.Lease,
	grantedAt time.Time, rec *Recorder) (time.Duration, bool) {
	waited := grantedAt.Sub(req.start)
	record(rec.AcquireWait, waited)
	held := req.hold <= 0 || sleep.For(ctx, req.hold)
	releaseStart := time.Now()
	keys.releasing(req.key, releaseStart)
	// Release even when ctx ended, so a run never leaves its locks behind.
	err := l.Release(context.WithoutCancel(ctx), lease)
	end := time.Now()
	record(rec.Release, end.Sub(releaseStart))
	if err != nil {
		keys.releaseFailed(req.key, releaseStart)
		rec.Errors[errorKind(err)]++
		return 0, false
	}
	if !held {
		rec.CutOffHolds++ // a cycle with a shortened hold is no cycle of this load
		return 0, false
	}
	record(rec.Cycle, end.Sub(req.start))
	rec.Granted++
	return waited, true
}

// jitter draws a delay from the upper half of d.
func jitter(d time.Duration) time.Duration {
	if d <= 1 {
		return d
	}
	return d/2 + rand.N(d/2)
}
