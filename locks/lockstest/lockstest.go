// Package lockstest is the behaviour every Locker must show, run against real servers
// by each strategy's tests, and the helpers those tests share.
package lockstest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// AcquireEventually retries one attempt at a time until granted. Refusals and attempts
// that ran out of their own time are always retried; other errors (an election in
// progress) only when tolerateErrors.
func AcquireEventually(ctx context.Context, t testing.TB, l locks.Locker, key string, ttl time.Duration,
	tolerateErrors bool) locks.Lease {
	t.Helper()
	var last error
	for {
		lease, err := l.Acquire(ctx, key, ttl)
		if err == nil {
			return lease
		}
		// An attempt that ran out of its own time (not the test's) held nothing: a loaded
		// machine's delay, asked again like a refusal.
		timedOut := errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil
		if !errors.Is(err, locks.ErrNotAcquired) && !timedOut && !tolerateErrors {
			t.Errorf("acquire %s: %v", key, err)
			return locks.Lease{}
		}
		last = err
		select {
		case <-ctx.Done():
			t.Errorf("acquire %s: gave up: %v (last: %v)", key, ctx.Err(), last)
			return locks.Lease{}
		case <-time.After(retryAfter):
		}
	}
}

// retryAfter is how long a refused attempt waits before the next: with eight workers
// on one key, seven wait at once, so a holder's successor still asks about 1.5 ms after
// a release on average. At 1 ms, the waiters' attempts spent half the CPU of every
// strategy's conformance run (123 CPU-s against 66 at 10 ms, servers included).
const retryAfter = 10 * time.Millisecond

// lostUpdateCounter is a counter whose increment is a separate read and write with a
// pause between them: two holders at once lose increments.
type lostUpdateCounter struct{ v atomic.Int64 }

func (c *lostUpdateCounter) increment() {
	v := c.v.Load()
	time.Sleep(50 * time.Microsecond)
	c.v.Store(v + 1)
}

// counterTTL is the counter lock's TTL: far above the increment's 50 us and the stalls
// of a loaded machine (at 2 s, load 40, a redlock-3 holder's lease ran out between its
// grant and its release), and short enough that a partial lock leaked by a failed
// attempt blocks the others briefly. redsync with fail-fast leaks them under
// contention: it stops waiting once the outcome is decided, and a SET still in flight
// can land after the attempt's release.
const counterTTL = 5 * time.Second

// SessionCounterTTL is the counter lock's TTL on a store whose lease is a session or a
// lease a grant, txn and revoke must fit in: ZooKeeper's session closes when one reply
// takes 2/3 of it, which at 2 s (load 20) and at 10 s (load 20-37 beside a benchmark)
// cut the counter short with "zk: connection closed".
const SessionCounterTTL = 30 * time.Second

// CountUnderLock has workers increment a lost-update counter increments times each,
// every increment inside its own lock, and returns the count and how many increments
// ran: a worker whose acquire failed (reported on t) stops, so the two differ only by
// increments two holders lost.
func CountUnderLock(t testing.TB, l locks.Locker, workers, increments int) (count, done int64) {
	return countUnderLock(t, l, leaseStore, workers, increments)
}

// storePlan is how the conformance checks run on one kind of store.
type storePlan struct {
	counterTTL time.Duration // the counter's locks
	expiryTTL  time.Duration // the lock left to expire
	// elections: a worker rides out the errors of an election in the store (logged), which
	// a consensus store holds whenever the load delays its heartbeats past its timeout.
	elections bool
}

// leaseStore is a store whose lock is a key with a TTL (Redis, PostgreSQL's table).
var leaseStore = storePlan{counterTTL: counterTTL, expiryTTL: time.Second}

// consensusStore is a consensus store whose counter locks at ttl: its lease is a session
// or takes several round trips (etcd's lease, txn, delete and revoke).
func consensusStore(ttl time.Duration) storePlan {
	return storePlan{counterTTL: ttl, expiryTTL: sessionExpiryTTL, elections: true}
}

// countUnderLock is CountUnderLock as plan runs it.
func countUnderLock(t testing.TB, l locks.Locker, plan storePlan, workers, increments int) (count, done int64) {
	// A hang guard, not a speed test: at load 24 a 3-member etcd's 400 cycles outlasted 90 s.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var counter lostUpdateCounter
	var ran atomic.Int64
	key := testenv.Key(t, "counter")
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < increments; i++ {
				lease := AcquireEventually(ctx, t, l, key, plan.counterTTL, plan.elections)
				if lease.Token == "" {
					return
				}
				counter.increment()
				ran.Add(1)
				if err := l.Release(ctx, lease); err != nil {
					if !plan.elections {
						t.Errorf("release: %v", err)
					} else {
						t.Logf("release in an election: %v (the lock ends with its lease)", err)
					}
				}
			}
		}()
	}
	wg.Wait()
	return counter.v.Load(), ran.Load()
}

// NoLock grants every attempt: the control that shows the counter can see two holders.
type NoLock struct{ locks.Locker }

func (NoLock) Acquire(_ context.Context, key string, _ time.Duration) (locks.Lease, error) {
	return locks.Lease{Key: key, Token: "t"}, nil
}
func (NoLock) Release(context.Context, locks.Lease) error { return nil }

// Conformance runs, against a live locker, what every strategy must do: keep mutual
// exclusion under contention, refuse another owner's token, free the lock when its
// TTL runs out (with a larger fence after, where there are fences), refuse a bad TTL.
func Conformance(t *testing.T, l locks.Locker, workers, increments int) {
	conformance(t, l, leaseStore, workers, increments)
}

// ConformanceAt is Conformance for a consensus store, whose lease is a session or takes
// several round trips (etcd's lease, txn, delete and revoke): the counter's locks at
// ttl, riding out elections (a three-member ZooKeeper, 200 ms ticks, re-elected at load
// 20 and closed the counter's connections), and the lock left to expire at sessionExpiryTTL.
func ConformanceAt(t *testing.T, l locks.Locker, ttl time.Duration, workers, increments int) {
	conformance(t, l, consensusStore(ttl), workers, increments)
}

// sessionExpiryTTL is the expiring lock's TTL on a session store: go-zookeeper closes the
// connection when one reply takes 2/3 of the session, which at 1 s (load 40) cut a
// ZooKeeper ensemble's expiry check short with "zk: connection closed".
const sessionExpiryTTL = 4 * time.Second

// conformance is Conformance as plan runs it.
func conformance(t *testing.T, l locks.Locker, plan storePlan, workers, increments int) {
	ctx := context.Background()

	t.Run("mutual exclusion keeps a racy counter exact", func(t *testing.T) {
		got, done := countUnderLock(t, l, plan, workers, increments)
		if got != done {
			t.Errorf("counter = %d after %d increments: two holders at once", got, done)
		}
		if done != int64(workers*increments) {
			t.Errorf("%d of %d increments ran: a worker stopped on an error above", done, workers*increments)
		}
	})

	t.Run("another owner's token cannot release or extend", func(t *testing.T) {
		owned := testenv.Key(t, "owned")
		lease, err := l.Acquire(ctx, owned, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if lease.HasFence && lease.Fence <= 0 {
			t.Errorf("lease claims a fence but has none: %+v", lease)
		}
		foreign := lease
		foreign.Token = locks.NewToken()
		if err := l.Release(ctx, foreign); !errors.Is(err, locks.ErrNotHeld) {
			t.Errorf("release with a foreign token: %v, want ErrNotHeld", err)
		}
		if _, err := l.Extend(ctx, foreign, time.Minute); !errors.Is(err, locks.ErrNotHeld) {
			t.Errorf("extend with a foreign token: %v, want ErrNotHeld", err)
		}
		if _, err := l.Acquire(ctx, owned, time.Second); !errors.Is(err, locks.ErrNotAcquired) {
			t.Errorf("acquire after a foreign release: %v, want ErrNotAcquired", err)
		}
		time.Sleep(10 * time.Millisecond) // so that an extension visibly moves the deadline
		extended, err := l.Extend(ctx, lease, 10*time.Second)
		if err != nil {
			t.Errorf("owner's extend: %v", err)
		} else if !extended.ValidUntil.After(lease.ValidUntil) {
			t.Errorf("extend did not move ValidUntil: %v then %v", lease.ValidUntil, extended.ValidUntil)
		}
		if err := l.Release(ctx, lease); err != nil {
			t.Errorf("owner's release: %v", err)
		}
		if err := l.Release(ctx, lease); !errors.Is(err, locks.ErrNotHeld) {
			t.Errorf("second release: %v, want ErrNotHeld", err)
		}
		if _, err := l.Extend(ctx, lease, 10*time.Second); !errors.Is(err, locks.ErrNotHeld) {
			t.Errorf("extend after release: %v, want ErrNotHeld", err)
		}
	})

	t.Run("an expired TTL frees the lock", func(t *testing.T) {
		expiring, first, ttl := heldThenRefused(ctx, t, l, plan.expiryTTL)
		waitCtx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		next := AcquireEventually(waitCtx, t, l, expiring, ttl, false)
		if next.HasFence && next.Fence <= first.Fence {
			t.Errorf("fence after expiry %d, not above the expired holder's %d", next.Fence, first.Fence)
		}
		if err := l.Release(ctx, first); !errors.Is(err, locks.ErrNotHeld) {
			t.Errorf("release by the expired holder: %v, want ErrNotHeld", err)
		}
	})

	t.Run("bad ttl is refused", func(t *testing.T) {
		for _, ttl := range []time.Duration{0, -time.Second} {
			if _, err := l.Acquire(ctx, testenv.Key(t, "k"), ttl); err == nil {
				t.Errorf("acquire with ttl %v succeeded", ttl)
			}
		}
	})
}

// heldThenRefused takes a fresh key at ttl and asks for it again at once: the second
// attempt must be refused. A second grant fails the test if it ended before ttl had run
// from the first attempt's start (no copy of the lock could have expired yet). One that
// ended later proves nothing (on a loaded machine one came 1.1 s after a 1 s lock), nor
// does a first attempt that outran its own TTL: the check runs again at twice the TTL,
// up to 8 times it. It returns the key, the held lease and the TTL it was taken at.
func heldThenRefused(ctx context.Context, t *testing.T, l locks.Locker,
	ttl time.Duration) (string, locks.Lease, time.Duration) {
	t.Helper()
	for try := 0; ; try++ {
		key := testenv.Key(t, fmt.Sprintf("expiring-%d", try))
		first, seen, err := secondAttempt(ctx, l, key, ttl, time.Now)
		switch {
		case err != nil:
			t.Fatal(err)
		case seen.outcome == refused:
			return key, first, ttl
		case seen.outcome == grantedWithinTTL:
			t.Fatalf("second acquire granted %v after the first began, within its %v TTL: want ErrNotAcquired", seen.took, ttl)
		case try == 3:
			t.Fatalf("%s at a %v TTL, %d times: the machine never let the check run within a TTL", seen, ttl, try+1)
		}
		t.Logf("%s at a %v TTL: trying again at twice the TTL", seen, ttl)
		ttl *= 2
	}
}

// attemptOutcome is what asking again for a lock just taken showed.
type attemptOutcome int

const (
	refused          attemptOutcome = iota
	grantedWithinTTL                // a second holder while the first's lock was live everywhere
	grantedPastTTL                  // the first's lock may have expired: no verdict
	firstOutranTTL                  // the first attempt was refused on a fresh key: it took longer than its TTL
)

type attemptSeen struct {
	outcome attemptOutcome
	took    time.Duration // from the first attempt's start to the end of the second
}

func (a attemptSeen) String() string {
	if a.outcome == firstOutranTTL {
		return fmt.Sprintf("the first acquire of a fresh key refused after %v", a.took)
	}
	return fmt.Sprintf("second acquire granted %v after the first began", a.took)
}

// secondAttempt takes key at ttl, then asks for it again, timing both on now.
func secondAttempt(ctx context.Context, l locks.Locker, key string, ttl time.Duration,
	now func() time.Time) (locks.Lease, attemptSeen, error) {
	began := now()
	first, err := l.Acquire(ctx, key, ttl)
	if errors.Is(err, locks.ErrNotAcquired) {
		return locks.Lease{}, attemptSeen{firstOutranTTL, now().Sub(began)}, nil
	}
	if err != nil {
		return locks.Lease{}, attemptSeen{}, fmt.Errorf("first acquire of a fresh key: %w", err)
	}
	_, err = l.Acquire(ctx, key, ttl)
	took := now().Sub(began)
	switch {
	case errors.Is(err, locks.ErrNotAcquired):
		return first, attemptSeen{refused, took}, nil
	case err != nil:
		return first, attemptSeen{}, fmt.Errorf("second acquire of a held lock: %w, want ErrNotAcquired", err)
	case took < ttl:
		return first, attemptSeen{grantedWithinTTL, took}, nil
	}
	return first, attemptSeen{grantedPastTTL, took}, nil
}

// FirstNonIncreasing returns the index of the first fence not above its predecessor,
// or -1: the check every fenced strategy's tests make on the fences it handed out.
func FirstNonIncreasing(fences []int64) int {
	for i := 1; i < len(fences); i++ {
		if fences[i] <= fences[i-1] {
			return i
		}
	}
	return -1
}
