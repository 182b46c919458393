package lockstest

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// WaiterSetup is what the Waiter checks need from a strategy's tests.
type WaiterSetup struct {
	// New returns another owner: a Waiter of the strategy over the same deployment.
	New func(t *testing.T) locks.Waiter
	// Queued counts the waiters the store shows queued on key (a node, a key, a backend
	// blocked on the lock): the checks wait for it instead of guessing with sleeps. Nil
	// for a library that polls, which leaves nothing to see: the checks then give the
	// wait a moment to begin, and only the order of events decides them.
	Queued func(ctx context.Context, key string) (int, error)
	// Expiring is a holder's ttl the store lets run out within the check (300 ms on
	// Redis); the waiter must be granted only after it did. 0 skips the check.
	Expiring time.Duration
	// FIFO says the store grants waiters in their arrival order.
	FIFO bool
	// TTL is the leases' ttl (default 30 s): long, so that only a release frees a key.
	TTL time.Duration
	// Dropped proves, for a library known to drop a wait (rueidislock's caching wait,
	// docs/libraries.md), that w's wait on key can no longer be woken. The checks then
	// log it and ask again: a wait that hangs without that proof still fails them.
	Dropped func(w locks.Waiter, key string) bool
}

// waitResult is what one AcquireWaiting returned.
type waitResult struct {
	lease locks.Lease
	err   error
	// early says it returned before the holder began to release the key.
	early bool
}

// WaiterConformance runs, against live lockers, what every Waiter must do: grant a free
// key at once, grant a held key only after its holder released it, give back a wait cut
// off by ctx so the key is free for the next owner, and (if FIFO) grant in arrival order.
func WaiterConformance(t *testing.T, setup WaiterSetup) {
	if setup.TTL == 0 {
		setup.TTL = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	holder, waiter := setup.New(t), setup.New(t)

	t.Run("says how it waits", func(t *testing.T) {
		if waiter.Waiting() == "" {
			t.Error("Waiting() is empty")
		}
	})

	t.Run("a free key is granted at once", func(t *testing.T) {
		key := testenv.Key(t, "free")
		lease, err := waiter.AcquireWaiting(ctx, key, setup.TTL)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := holder.Acquire(ctx, key, setup.TTL); !errors.Is(err, locks.ErrNotAcquired) {
			t.Errorf("one attempt on the waiter's key: %v, want ErrNotAcquired", err)
		}
		if err := waiter.Release(ctx, lease); err != nil {
			t.Errorf("release: %v", err)
		}
	})

	t.Run("bad ttl is refused", func(t *testing.T) {
		for _, ttl := range []time.Duration{0, -time.Second} {
			if _, err := waiter.AcquireWaiting(ctx, testenv.Key(t, "k"), ttl); err == nil {
				t.Errorf("wait with ttl %v succeeded", ttl)
			}
		}
	})

	t.Run("a held key is granted only after its release", func(t *testing.T) {
		key := testenv.Key(t, "held")
		held := acquireNow(ctx, t, holder, key, setup.TTL)
		var releasing atomic.Bool
		granted := startWaiting(ctx, t, setup, waiter, key, &releasing)
		awaitQueued(ctx, t, setup, key, 1)
		releasing.Store(true)
		if err := holder.Release(ctx, held); err != nil {
			t.Fatal(err)
		}
		got := <-granted
		if got.err != nil {
			t.Fatalf("wait: %v", got.err)
		}
		if got.early {
			t.Error("the waiter was granted the key before its holder released it")
		}
		if got.lease.HasFence && got.lease.Fence <= held.Fence {
			t.Errorf("waiter's fence %d not above the holder's %d", got.lease.Fence, held.Fence)
		}
		if err := waiter.Release(ctx, got.lease); err != nil {
			t.Errorf("waiter's release: %v", err)
		}
	})

	t.Run("a wait cut off by ctx leaves the key free", func(t *testing.T) {
		key := testenv.Key(t, "cut")
		held := acquireNow(ctx, t, holder, key, setup.TTL)
		waitCtx, cutOff := context.WithCancel(ctx)
		var releasing atomic.Bool
		granted := startWaiting(waitCtx, t, setup, waiter, key, &releasing)
		awaitQueued(ctx, t, setup, key, 1)
		cutOff()
		if got := <-granted; !errors.Is(got.err, context.Canceled) {
			t.Errorf("wait cut off: lease %+v, error %v; want context.Canceled", got.lease, got.err)
		}
		if setup.Queued != nil {
			if n, err := setup.Queued(ctx, key); err != nil || n != 0 {
				t.Errorf("after the cut-off wait returned, %d still queued (%v)", n, err)
			}
		}
		if err := holder.Release(ctx, held); err != nil {
			t.Fatal(err)
		}
		nextOwner := setup.New(t)
		next := acquireNow(ctx, t, nextOwner, key, setup.TTL)
		if next.HasFence && next.Fence <= held.Fence {
			t.Errorf("next owner's fence %d not above the holder's %d", next.Fence, held.Fence)
		}
		if err := nextOwner.Release(ctx, next); err != nil {
			t.Errorf("next owner's release: %v", err)
		}
	})

	if setup.Expiring > 0 {
		t.Run("a held key is granted only after its holder's ttl ran out", func(t *testing.T) {
			key := testenv.Key(t, "expiring")
			held := acquireNow(ctx, t, holder, key, setup.Expiring)
			lease, err := acquireWaiting(ctx, t, setup, waiter, key)
			if err != nil {
				t.Fatal(err)
			}
			if granted := time.Now(); !granted.After(held.ValidUntil) {
				t.Errorf("granted at %v, before the holder's lease ran out at %v", granted, held.ValidUntil)
			}
			if err := waiter.Release(ctx, lease); err != nil {
				t.Errorf("waiter's release: %v", err)
			}
		})
	}

	if setup.FIFO && setup.Queued != nil {
		t.Run("waiters are granted in arrival order", func(t *testing.T) {
			waitersInArrivalOrder(ctx, t, setup, holder, waiter)
		})
	}
}

// waitersInArrivalOrder queues a first and a second waiter behind a holder (the second
// starts once the first shows queued) and checks the first is granted first.
func waitersInArrivalOrder(ctx context.Context, t *testing.T, setup WaiterSetup, holder, first locks.Waiter) {
	key := testenv.Key(t, "fifo")
	second := setup.New(t)
	held := acquireNow(ctx, t, holder, key, setup.TTL)
	var holderReleasing, firstReleasing atomic.Bool
	firstGranted := startWaiting(ctx, t, setup, first, key, &holderReleasing)
	awaitQueued(ctx, t, setup, key, 1)
	secondGranted := startWaiting(ctx, t, setup, second, key, &firstReleasing)
	awaitQueued(ctx, t, setup, key, 2)
	holderReleasing.Store(true)
	if err := holder.Release(ctx, held); err != nil {
		t.Fatal(err)
	}
	var got waitResult
	select {
	case got = <-firstGranted:
	case got = <-secondGranted:
		t.Fatalf("the second waiter was granted first (%v); the first is still waiting", got.err)
	}
	if got.err != nil || got.early {
		t.Fatalf("first waiter: %v (before the holder's release: %v)", got.err, got.early)
	}
	firstReleasing.Store(true)
	if err := first.Release(ctx, got.lease); err != nil {
		t.Fatal(err)
	}
	got = <-secondGranted
	if got.err != nil || got.early {
		t.Fatalf("second waiter: %v (before the first's release: %v)", got.err, got.early)
	}
	if err := second.Release(ctx, got.lease); err != nil {
		t.Error(err)
	}
}

// acquireNow is one attempt that must succeed.
func acquireNow(ctx context.Context, t *testing.T, l locks.Locker, key string, ttl time.Duration) locks.Lease {
	t.Helper()
	lease, err := l.Acquire(ctx, key, ttl)
	if err != nil {
		t.Fatalf("acquire %s: %v", key, err)
	}
	return lease
}

// startWaiting runs acquireWaiting in the background; its result says whether it came
// before releasing was set.
func startWaiting(
	ctx context.Context, t *testing.T, setup WaiterSetup, w locks.Waiter, key string, releasing *atomic.Bool,
) <-chan waitResult {
	done := make(chan waitResult, 1)
	go func() {
		lease, err := acquireWaiting(ctx, t, setup, w, key)
		done <- waitResult{lease: lease, err: err, early: !releasing.Load()}
	}()
	return done
}

// droppedCheckEvery is how often a wait is checked for the library's proof that it
// dropped it; a drop counts when two checks in a row show it, so that a wait that has
// not yet reached the library is not taken for one. A variable for the checks' own tests.
var droppedCheckEvery = 500 * time.Millisecond

// acquireWaiting is w.AcquireWaiting for setup.TTL; where the library can drop a wait
// (setup.Dropped), a wait it proved dropped is cut off, logged, and asked again.
func acquireWaiting(
	ctx context.Context, t *testing.T, setup WaiterSetup, w locks.Waiter, key string,
) (locks.Lease, error) {
	if setup.Dropped == nil {
		return w.AcquireWaiting(ctx, key, setup.TTL)
	}
	for {
		waitCtx, cutOff := context.WithCancel(ctx)
		var dropped atomic.Bool
		watched := make(chan struct{})
		go func() {
			defer close(watched)
			shown := 0
			tick := time.NewTicker(droppedCheckEvery)
			defer tick.Stop()
			for shown < 2 {
				select {
				case <-waitCtx.Done():
					return
				case <-tick.C:
				}
				if shown++; !setup.Dropped(w, key) {
					shown = 0
				}
			}
			dropped.Store(true)
			cutOff()
		}()
		lease, err := w.AcquireWaiting(waitCtx, key, setup.TTL)
		cutOff()
		<-watched
		if err == nil || !dropped.Load() || ctx.Err() != nil {
			return lease, err
		}
		t.Logf("the library dropped the wait on %s (it can no longer be woken): asking again", key)
	}
}

// awaitQueued waits until the store shows n waiters on key; where it shows none (a
// polling library), it gives the wait a moment to begin, on which no outcome depends.
func awaitQueued(ctx context.Context, t *testing.T, setup WaiterSetup, key string, n int) {
	t.Helper()
	if setup.Queued == nil {
		time.Sleep(100 * time.Millisecond)
		return
	}
	var last int
	ok := testenv.Poll(t, time.Minute, 5*time.Millisecond, func() (bool, error) {
		got, err := setup.Queued(ctx, key)
		last = got
		return got == n, err
	})
	if !ok {
		t.Fatalf("%d waiters queued on %s, want %d", last, key, n)
	}
}

// Queue starts waiter waiting for key, which another owner holds, and returns once the
// store shows it queued (queued counts one waiter); the channel gives the lease granted.
func Queue(t *testing.T, waiter locks.Waiter, key string, ttl time.Duration,
	queued func(ctx context.Context, key string) (int, error)) <-chan locks.Lease {
	t.Helper()
	ctx := context.Background()
	granted := make(chan locks.Lease, 1)
	go func() {
		lease, err := waiter.AcquireWaiting(ctx, key, ttl)
		if err != nil {
			t.Errorf("wait: %v", err)
		}
		granted <- lease
	}()
	if !testenv.Poll(t, time.Minute, 5*time.Millisecond, func() (bool, error) {
		n, err := queued(ctx, key)
		return n == 1, err
	}) {
		t.Fatal("the waiter never queued")
	}
	return granted
}
