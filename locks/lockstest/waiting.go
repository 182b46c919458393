package lockstest

import (
	"context"
	"testing"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// waitGiveUp bounds a wait that should end with a grant: a give-up, never a measure.
const waitGiveUp = 60 * time.Second

// waited is what one AcquireWaiting returned, and when.
type waited struct {
	lease    locks.Lease
	err      error
	returned time.Time
}

// startWaiting runs w.AcquireWaiting on key in the background.
func startWaiting(ctx context.Context, w locks.Waiter, key string, ttl time.Duration) <-chan waited {
	out := make(chan waited, 1)
	go func() {
		lease, err := w.AcquireWaiting(ctx, key, ttl)
		out <- waited{lease, err, time.Now()}
	}()
	return out
}

// WaiterWaitsForTheHolder checks, on real servers, that w's AcquireWaiting on a key
// another owner (holder, a second locker of the same strategy) holds is granted only
// after the holder gives it back, or after the holder's TTL ran out. It asserts the
// order of events, never how long they took.
func WaiterWaitsForTheHolder(t *testing.T, holder locks.Locker, w locks.Waiter) {
	ctx, cancel := context.WithTimeout(context.Background(), waitGiveUp)
	defer cancel()

	t.Run("granted after the holder's release", func(t *testing.T) {
		key := testenv.Key(t, "released")
		held, err := holder.Acquire(ctx, key, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		result := startWaiting(ctx, w, key, time.Minute)
		time.Sleep(100 * time.Millisecond) // a chance to be waiting: no outcome depends on it
		select {
		case got := <-result:
			t.Fatalf("AcquireWaiting returned while the key was held: %+v, %v", got.lease, got.err)
		default:
		}
		releasing := time.Now()
		if err := holder.Release(ctx, held); err != nil {
			t.Fatalf("holder's release: %v", err)
		}
		got := <-result
		if got.err != nil {
			t.Fatalf("AcquireWaiting after the release: %v", got.err)
		}
		defer w.Release(context.Background(), got.lease)
		if !got.returned.After(releasing) {
			t.Errorf("granted at %v, before the holder began its release at %v", got.returned, releasing)
		}
	})

	t.Run("granted after the holder's ttl ran out", func(t *testing.T) {
		key := testenv.Key(t, "expiring")
		held, err := holder.Acquire(ctx, key, 300*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		got := <-startWaiting(ctx, w, key, time.Minute)
		if got.err != nil {
			t.Fatalf("AcquireWaiting on an expiring key: %v", got.err)
		}
		defer w.Release(context.Background(), got.lease)
		if !got.returned.After(held.ValidUntil) {
			t.Errorf("granted at %v, before the holder's lease ran out at %v", got.returned, held.ValidUntil)
		}
	})

	t.Run("a wait cut off by ctx leaves nothing behind", func(t *testing.T) {
		key := testenv.Key(t, "cut")
		held, err := holder.Acquire(ctx, key, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		cut, stop := context.WithCancel(ctx)
		result := startWaiting(cut, w, key, time.Minute)
		stop()
		if got := <-result; got.err == nil {
			t.Fatalf("AcquireWaiting granted a held key: %+v", got.lease)
		}
		if err := holder.Release(ctx, held); err != nil {
			t.Fatalf("holder's release: %v", err)
		}
		if lease, err := holder.Acquire(ctx, key, time.Minute); err != nil {
			t.Errorf("acquire after a cut-off wait and the holder's release: %v", err)
		} else {
			_ = holder.Release(ctx, lease)
		}
	})
}
