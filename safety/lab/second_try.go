package lab

import (
	"context"
	"errors"
	"time"
)

// SecondTry is B's try for the key a holder has after a fault, asking every interval
// for as long as try: granted, B works in res (staying dwell) and releases; not
// granted in time, B does nothing. Any other failure ends the trial.
func SecondTry(ctx context.Context, b *Client, key string, ttl time.Duration, res *Resource,
	try, interval, dwell time.Duration) (granted bool, err error) {
	tryCtx, tryCancel := context.WithTimeout(ctx, try)
	leaseB, err := b.AcquireUntil(tryCtx, key, ttl, interval)
	tryCancel()
	switch {
	case err == nil:
		_ = b.Enter(ctx, res, leaseB)
		b.Write(ctx, res, leaseB)
		if dwell > 0 {
			_ = Sleep(ctx, dwell)
		}
		b.Leave(res, leaseB)
		_ = b.Release(ctx, leaseB)
		return true, nil
	case !errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
		return false, Failed("second-acquire", err)
	}
	return false, nil
}
