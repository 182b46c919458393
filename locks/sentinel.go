package locks

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// SentinelOptions configure the sentinel strategy.
type SentinelOptions struct {
	RedisOptions
	MasterName string
}

// NewSentinel locks on whichever server the sentinels at sentinelAddrs name as master.
// After a failover it follows the new master, which may not have the old master's keys.
func NewSentinel(ctx context.Context, sentinelAddrs []string, opts SentinelOptions) (Locker, error) {
	c := NewFailoverClient(sentinelAddrs, opts.MasterName, "sentinel", opts.RedisOptions)
	return newSetNX(ctx, "sentinel", c, opts.timeout())
}

// NewFailoverClient is how every client of a sentinel-watched master is made: the
// settings of NewRedisClient and purpose's allow-list on the master's connections.
func NewFailoverClient(sentinelAddrs []string, masterName, purpose string, opts RedisOptions) *redis.Client {
	return Guard(redis.NewFailoverClient(&redis.FailoverOptions{
		MasterName:    masterName,
		SentinelAddrs: sentinelAddrs,
		Username:      opts.Access.Username,
		Password:      opts.Access.Password,
		TLSConfig:     opts.Access.TLS,
		// The sentinels' own ACL user, if they ask for one.
		SentinelUsername: opts.SentinelAccess.Username,
		SentinelPassword: opts.SentinelAccess.Password,
		PoolSize:         opts.PoolSize,
		MaxRetries:       -1, // see NewRedisClient: never resend a SET NX
		DialTimeout:      opts.timeout(),
		ReadTimeout:      opts.timeout(),
		WriteTimeout:     opts.timeout(),
		DisableIdentity:  true,
		Dialer:           opts.Dialer,
		Protocol:         2, // RESP3 push handling costs a socket peek per command
	}), purpose, opts.KeyPrefix)
}
