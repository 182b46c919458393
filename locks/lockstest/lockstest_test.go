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
