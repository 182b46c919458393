package redislock

import (
	"context"
	"time"
)

// cutOffCleanup is the context in which an attempt that ctx cut short gives back what
// it may have taken: its SET may have landed after the caller stopped waiting, and a
// lock left behind would block the next run on the same key for a whole TTL.
func cutOffCleanup(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), timeout)
}
