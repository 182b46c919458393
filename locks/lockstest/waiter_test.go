package lockstest

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockbench/lockbench/locks"
)

// The checks below count the proof's checks, not time: they need not wait 500 ms for each.
func init() { droppedCheckEvery = time.Millisecond }

// hangingWaiter's waits hang until ctx ends, except that wait number grantAt is granted.
type hangingWaiter struct {
	locks.Waiter
	calls   atomic.Int32
	grantAt int32
}

func (w *hangingWaiter) AcquireWaiting(ctx context.Context, key string, _ time.Duration) (locks.Lease, error) {
	if w.calls.Add(1) == w.grantAt {
		return locks.Lease{Key: key}, nil
	}
	<-ctx.Done()
	return locks.Lease{}, ctx.Err()
}

// A wait the library proved dropped is asked again; its second wait's grant is returned.
func TestAcquireWaitingAsksAgainAfterAProvenDrop(t *testing.T) {
	t.Parallel()
	w := &hangingWaiter{grantAt: 2}
	setup := WaiterSetup{TTL: time.Minute, Dropped: func(locks.Waiter, string) bool { return true }}
	lease, err := acquireWaiting(context.Background(), t, setup, w, "k")
	if err != nil || lease.Key != "k" {
		t.Fatalf("lease %+v, error %v; want the second wait's grant", lease, err)
	}
	if n := w.calls.Load(); n != 2 {
		t.Errorf("%d waits, want 2", n)
	}
}

// A hang without the proof is not asked again: it ends only with the caller's ctx.
func TestAcquireWaitingKeepsAnUnprovenHang(t *testing.T) {
	t.Parallel()
	w := &hangingWaiter{}
	ctx, cancel := context.WithCancel(context.Background())
	var checks atomic.Int32
	setup := WaiterSetup{TTL: time.Minute, Dropped: func(locks.Waiter, string) bool {
		if checks.Add(1) == 4 {
			cancel()
		}
		return false
	}}
	_, err := acquireWaiting(ctx, t, setup, w, "k")
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
	if n := w.calls.Load(); n != 1 {
		t.Errorf("%d waits, want 1: an unproven hang was asked again", n)
	}
}

// One check showing the drop is not enough: a wait that has not reached the library yet
// looks the same for a moment.
func TestAcquireWaitingNeedsTheDropShownTwiceInARow(t *testing.T) {
	t.Parallel()
	w := &hangingWaiter{}
	ctx, cancel := context.WithCancel(context.Background())
	var checks atomic.Int32
	setup := WaiterSetup{TTL: time.Minute, Dropped: func(locks.Waiter, string) bool {
		n := checks.Add(1)
		if n == 6 {
			cancel()
		}
		return n%2 == 1 // shown, not shown, shown, ...
	}}
	if _, err := acquireWaiting(ctx, t, setup, w, "k"); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
	if n := w.calls.Load(); n != 1 {
		t.Errorf("%d waits, want 1", n)
	}
}
