package redislock

import (
	"context"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/redisconn"
)

// SentinelOptions configure the sentinel strategy.
type SentinelOptions struct {
	redisconn.Options
	MasterName string
}

// NewSentinel locks on whichever server the sentinels at sentinelAddrs name as master.
// After a failover it follows the new master, which may not have the old master's keys.
func NewSentinel(ctx context.Context, sentinelAddrs []string, opts SentinelOptions) (locks.Locker, error) {
	c := redisconn.NewFailoverClient(sentinelAddrs, opts.MasterName, "sentinel", opts.Options)
	return newSetNX(ctx, "sentinel", c, opts.CommandTimeout())
}
