package redislock

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/redis/go-redis/v9"
)

// waitLocker is single plus WAIT after the SET: the grant counts only once enough
// replicas hold the key. It narrows the failover window; it does not close it.
type waitLocker struct {
	*setNX
	opts locks.WaitOptions
}

// NewWait locks on the master at addr and waits for opts.Replicas replicas.
func NewWait(ctx context.Context, addr string, opts locks.WaitOptions) (locks.Locker, error) {
	opts = opts.WithDefaults()
	core, err := newSingleFor(ctx, addr, "wait", opts.Options)
	if err != nil {
		return nil, err
	}
	return &waitLocker{setNX: core, opts: opts}, nil
}

func (w *waitLocker) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	return AcquireAcknowledged(ctx, w.client, key, ttl, w.opts, w.giveBack)
}

// AcquireAcknowledged is the wait strategy's attempt on one master's client: SET NX
// and WAIT in one pipeline, the lock given back (by giveBack) unless opts.Replicas
// replicas acknowledged it. A store whose key's master is found per key (a cluster)
// calls it with that master's client.
func AcquireAcknowledged(ctx context.Context, client redis.Cmdable, key string, ttl time.Duration,
	opts locks.WaitOptions, giveBack func(context.Context, locks.Lease)) (locks.Lease, error) {
	opts = opts.WithDefaults()
	if ttl <= 0 {
		return locks.Lease{}, fmt.Errorf("ttl = %v: must be > 0", ttl)
	}
	lease := locks.Lease{Key: key, Token: locks.NewToken(), Start: time.Now()}
	// WAIT does not block inside MULTI or Lua, so it is a second command; pipelining
	// keeps the pair to one network round trip.
	var set *redis.BoolCmd
	var wait *redis.Cmd
	_, err := client.Pipelined(ctx, func(p redis.Pipeliner) error {
		set = p.SetNX(ctx, key, lease.Token, ttl)
		wait = p.Do(ctx, "WAIT", opts.Replicas, opts.Timeout.Milliseconds())
		return nil
	})
	if err != nil && set.Err() != nil {
		if ctx.Err() != nil {
			giveBack(ctx, lease) // cut off: the SET may have landed
		}
		return locks.Lease{}, set.Err()
	}
	if !set.Val() {
		return locks.Lease{}, locks.ErrNotAcquired
	}
	acked, waitErr := wait.Int64()
	if waitErr != nil {
		// WAIT itself failed (an error reply, a broken connection): no replica refused
		// anything, so this is not ErrNotReplicated. Give back what may be held.
		giveBack(ctx, lease)
		return locks.Lease{}, fmt.Errorf("WAIT %d after the SET: %w", opts.Replicas, waitErr)
	}
	if err := opts.Acknowledged(acked); err != nil {
		// The master holds a lock no failover would keep: give it back.
		giveBack(ctx, lease)
		return locks.Lease{}, err
	}
	lease.ValidUntil = lease.Start.Add(ttl)
	return lease, nil
}
