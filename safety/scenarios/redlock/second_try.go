package redlock

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/lab"
)

// secondTry is B's brief try for the key the holder has after the fault: granted, B
// works in res (staying dwell) and releases; not granted within the try, B does
// nothing. Any other failure ends the trial.
func secondTry(ctx context.Context, b *lab.Client, key string, ttl time.Duration, res *lab.Resource,
	dwell time.Duration) error {
	tryCtx, tryCancel := context.WithTimeout(ctx, 300*time.Millisecond)
	leaseB, err := b.AcquireUntil(tryCtx, key, ttl, 20*time.Millisecond)
	tryCancel()
	switch {
	case err == nil:
		_ = b.Enter(ctx, res, leaseB)
		b.Write(ctx, res, leaseB)
		if dwell > 0 {
			_ = lab.Sleep(ctx, dwell)
		}
		b.Leave(res, leaseB)
		_ = b.Release(ctx, leaseB)
	case !errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
		return lab.Failed("second-acquire", err)
	}
	return nil
}

// finishHolder has the holder, still inside, write, leave and release after B's try.
// Its validity must outlast the try: an overlap after it would be the holder's own
// fault, not the fault's.
func finishHolder(ctx context.Context, a *lab.Client, res *lab.Resource, lease locks.Lease, ttl time.Duration) error {
	if time.Now().After(lease.ValidUntil) {
		return lab.Failed("timing", fmt.Errorf(
			"%s's validity ended before B was done: the %v TTL is too short for this machine", a.ID, ttl))
	}
	a.Write(ctx, res, lease)
	a.Leave(res, lease)
	_ = a.Release(ctx, lease) // refused where B took the majority: expected
	return nil
}
