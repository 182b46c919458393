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
	c := redis.NewFailoverClient(&redis.FailoverOptions{
		MasterName:    opts.MasterName,
		SentinelAddrs: sentinelAddrs,
		Username:      opts.Access.Username,
		Password:      opts.Access.Password,
		TLSConfig:     opts.Access.TLS,
		// The sentinels' own ACL user, if they ask for one.
		SentinelUsername: opts.SentinelAccess.Username,
		SentinelPassword: opts.SentinelAccess.Password,
		PoolSize:         opts.PoolSize,
		MaxRetries:       -1, // see NewSingle: never resend a SET NX
		DialTimeout:      opts.timeout(),
		ReadTimeout:      opts.timeout(),
		WriteTimeout:     opts.timeout(),
		DisableIdentity:  true,
		Dialer:           opts.Dialer,
		Protocol:         2, // RESP3 push handling costs a socket peek per command
	})
	return newSetNX(ctx, "sentinel", Guard(c, "sentinel"), opts.timeout())
}
