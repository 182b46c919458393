package lockstest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/lockbench/lockbench/locks"
)

func TestFirstNonIncreasingSeesARegression(t *testing.T) {
	if got := FirstNonIncreasing([]int64{3, 5, 9, 9}); got != 3 {
		t.Errorf("repeat: %d, want 3", got)
	}
	if got := FirstNonIncreasing([]int64{3, 5, 4}); got != 2 {
		t.Errorf("regression: %d, want 2", got)
	}
	if got := FirstNonIncreasing([]int64{3, 5, 9}); got != -1 {
		t.Errorf("increasing: %d, want -1", got)
	}
}

// electingLocker is a one-key mutex whose every third acquire and every fifth release
// fail, as in a store's election: the failed release still lets go, as a lease would.
type electingLocker struct {
	locks.Locker
	mu              sync.Mutex
	held            bool
	acquires, frees int
}

func (l *electingLocker) Acquire(_ context.Context, key string, _ time.Duration) (locks.Lease, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.acquires++; l.acquires%3 == 0 {
		return locks.Lease{}, errors.New("zk: connection closed")
	}
	if l.held {
		return locks.Lease{}, locks.ErrNotAcquired
	}
	l.held = true
	return locks.Lease{Key: key, Token: "t"}, nil
}

func (l *electingLocker) Release(context.Context, locks.Lease) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.held = false
	if l.frees++; l.frees%5 == 0 {
		return errors.New("zk: connection closed")
	}
	return nil
}

// On a consensus store the counter rides out an election's errors and still completes.
func TestCountUnderLockRidesOutElections(t *testing.T) {
	t.Parallel()
	l := &electingLocker{}
	count, done := countUnderLock(t, l, storePlan{counterTTL: time.Second, elections: true}, 4, 10)
	if count != 40 || done != 40 {
		t.Errorf("count %d after %d increments, want 40 of 40", count, done)
	}
	if l.acquires < 40+40/3 || l.frees < 5 {
		t.Errorf("%d acquires and %d releases: the errors were not met", l.acquires, l.frees)
	}
}

// grantingLocker grants every attempt but the first refusals it is told to give: a lock
// that two can hold, or (refuseFirst) whose first grants outran their TTL.
type grantingLocker struct {
	locks.Locker
	refuseFirst, calls int
	holdsAlready       bool // refuses every attempt after the first: a working lock
}

func (l *grantingLocker) Acquire(_ context.Context, key string, _ time.Duration) (locks.Lease, error) {
	l.calls++
	if l.calls <= l.refuseFirst || (l.holdsAlready && l.calls > 1) {
		return locks.Lease{}, locks.ErrNotAcquired
	}
	return locks.Lease{Key: key, Token: "t"}, nil
}

// steppingClock advances by step at every reading.
func steppingClock(step time.Duration) func() time.Time {
	at := time.Unix(0, 0)
	return func() time.Time { at = at.Add(step); return at }
}

// The expiry check tells a second holder inside the TTL (a broken lock) from one the
// machine's stall let in, and from a refusal.
func TestSecondAttemptTellsTwoHoldersFromAStall(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name string
		l    *grantingLocker
		step time.Duration
		want attemptOutcome
	}{
		{"a working lock", &grantingLocker{holdsAlready: true}, 10 * time.Millisecond, refused},
		{"two holders at once", &grantingLocker{}, 10 * time.Millisecond, grantedWithinTTL},
		{"a second holder after a stall past the TTL", &grantingLocker{}, 1500 * time.Millisecond, grantedPastTTL},
		{"a first attempt that outran its TTL", &grantingLocker{refuseFirst: 1}, 10 * time.Millisecond, firstOutranTTL},
	} {
		_, seen, err := secondAttempt(ctx, c.l, "k", time.Second, steppingClock(c.step))
		if err != nil || seen.outcome != c.want {
			t.Errorf("%s: %v (%v), want outcome %d", c.name, seen, err, c.want)
		}
	}
}
