package lab

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/locks"
)

// AcquireThroughFaults retries one recorded attempt every 20 ms, through contention
// and through errors (an election, a failover in progress), for at most limit; its
// error, if it never got the lock, names the last attempt's.
func AcquireThroughFaults(ctx context.Context, c *Client, key string, ttl, limit time.Duration) (locks.Lease, error) {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	var last error
	for {
		// An fsynced write on three in-process etcd members took over 2 s under a full
		// parallel test run (CI); an attempt gets longer than that.
		attempt, cancelAttempt := context.WithTimeout(ctx, 5*time.Second)
		lease, err := c.Acquire(attempt, key, ttl)
		cancelAttempt()
		if err == nil {
			return lease, nil
		}
		if errors.Is(err, ErrCrashed) {
			return lease, err
		}
		last = err
		if Sleep(ctx, 20*time.Millisecond) != nil {
			return lease, fmt.Errorf("%w (last attempt: %v)", ctx.Err(), last)
		}
	}
}

// ReleaseSoon retries a release that fails for other reasons than "not held" (an
// election in progress) until it answers or ctx ends.
func ReleaseSoon(ctx context.Context, c *Client, lease locks.Lease) {
	for ctx.Err() == nil {
		attempt, cancel := context.WithTimeout(ctx, 2*time.Second)
		err := c.Release(attempt, lease)
		cancel()
		if err == nil || errors.Is(err, locks.ErrNotHeld) || errors.Is(err, ErrCrashed) {
			return
		}
		_ = Sleep(ctx, 50*time.Millisecond)
	}
}
