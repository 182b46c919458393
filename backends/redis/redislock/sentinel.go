package redislock

import (
	"context"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/redisconn"
)

// SentinelOptions configure the sentinel strategy.
type SentinelOptions struct {
	locks.RedisOptions
	MasterName string
}

// NewSentinel locks on whichever server the sentinels at sentinelAddrs name as master.
// After a failover it follows the new master, which may not have the old master's keys.
func NewSentinel(ctx context.Context, sentinelAddrs []string, opts SentinelOptions) (locks.Locker, error) {
	c := redisconn.NewFailoverClient(sentinelAddrs, opts.MasterName, "sentinel", opts.RedisOptions)
	return newSetNX(ctx, "sentinel", c, opts.CommandTimeout())
}
