package locks

import (
	"github.com/redis/go-redis/v9"
)

// NewRedisClient is how every Redis client of the lockers is made: the settings every
// strategy shares (no resent SET NX, RESP2, the bounds of opts) and its access. purpose
// names the strategy (or other user) the client serves: its allow-list (allowlist.go)
// is enforced on every command, so a client for a lock can never flush a server.
func NewRedisClient(addr, purpose string, opts RedisOptions) *redis.Client {
	return Guard(redis.NewClient(&redis.Options{
		Addr:      addr,
		Username:  opts.Access.Username,
		Password:  opts.Access.Password,
		TLSConfig: opts.Access.TLS,
		PoolSize:  opts.PoolSize,
		// Never resend a SET NX: a retry after a lost reply answers "taken" for a lock
		// the first send already granted to us.
		MaxRetries:      -1,
		DialTimeout:     opts.timeout(),
		ReadTimeout:     opts.timeout(),
		WriteTimeout:    opts.timeout(),
		DisableIdentity: true,
		Dialer:          opts.Dialer,
		Protocol:        2, // RESP3 push handling costs a socket peek per command
		// Pipelines (wait's SET + WAIT) share the main pool, sized to the clients and
		// warmed before a run, instead of a pool of 10 of their own that dials lazily.
		PipelinePoolSize: -1,
	}), purpose, opts.KeyPrefix)
}
