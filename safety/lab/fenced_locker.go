package lab

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/locks"
)

// fencedLocker adds a fencing token to a locker that has none: after each grant it
// INCRs a counter on the same Redis (fence:<key>). On one server the counter only
// grows; after a failover that lost writes it goes backwards (fence-regression).
type fencedLocker struct {
	locks.Locker
	counter redis.UniversalClient
	// ownsCounter: the counter has its own connection, closed with the locker.
	ownsCounter bool
}

// CounterFenced fences l's grants with an INCR of fence:<key> on counter, the common
// recipe for a store whose locks carry no fence; with owns, closing it closes counter.
func CounterFenced(l locks.Locker, counter redis.UniversalClient, owns bool) locks.Locker {
	return &fencedLocker{Locker: l, counter: counter, ownsCounter: owns}
}

// FenceKey is where the counter of key's fences lives.
func FenceKey(key string) string { return "fence:" + key }

func (f *fencedLocker) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	lease, err := f.Locker.Acquire(ctx, key, ttl)
	if err != nil {
		return lease, err
	}
	fence, err := f.counter.Incr(ctx, FenceKey(key)).Result()
	if err != nil {
		_ = f.Locker.Release(ctx, lease)
		return locks.Lease{}, fmt.Errorf("fencing counter: %w", err)
	}
	lease.Fence, lease.HasFence = fence, true
	return lease, nil
}

func (f *fencedLocker) Close() error {
	if !f.ownsCounter {
		return f.Locker.Close()
	}
	return errors.Join(f.counter.Close(), f.Locker.Close())
}
