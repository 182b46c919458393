// Package redisconn makes every Redis client lockbench sends commands through: the
// settings the lock strategies share, and the allow-list of commands by purpose that
// a hook enforces before anything leaves the process, on owned and external servers
// alike. It imports no other lockbench package, so the strategies and the providers
// of servers lockbench does not own can both use it.
package redisconn

import (
	"context"
	"crypto/tls"
	"net"
	"time"

	"github.com/redis/go-redis/v9"
)

// Access is what a client needs to be let in by servers that ask for it: an ACL user
// and its password, and TLS. A topology lockbench started itself needs none of it.
type Access struct {
	Username string
	Password string
	TLS      *tls.Config // nil: plain TCP
}

// Options are a client's settings.
type Options struct {
	// PoolSize is the connection pool size; 0 means go-redis's default (10 per CPU).
	// A benchmark with more clients than connections measures the pool, not Redis.
	PoolSize int
	// Timeout bounds dial, read and write of one command (default 2 s).
	Timeout time.Duration
	// Dialer, if set, opens every connection; a network profile uses it to route
	// clients through its proxies, including to masters learnt at run time.
	Dialer func(ctx context.Context, network, addr string) (net.Conn, error)
	// Access is the ACL user and TLS of servers that ask for them (an external deployment).
	Access Access
	// SentinelAccess is the sentinels' ACL user (the sentinel strategy), if they ask for one.
	SentinelAccess Access
	// KeyPrefix, when set, is the run's own prefix on servers lockbench does not own: a
	// command naming any other key is refused before it is sent.
	KeyPrefix string
}

// CommandTimeout is the bound of one command: Timeout, or 2 s when it is not set.
func (o Options) CommandTimeout() time.Duration {
	if o.Timeout <= 0 {
		return 2 * time.Second
	}
	return o.Timeout
}

// NewClient is how every Redis client of the lockers is made: the settings every
// strategy shares (no resent SET NX, RESP2, the bounds of opts) and its access. purpose
// names the strategy (or other user) the client serves: its allow-list (allowlist.go)
// is enforced on every command, so a client for a lock can never flush a server.
func NewClient(addr, purpose string, opts Options) *redis.Client {
	return Guard(redis.NewClient(&redis.Options{
		Addr:      addr,
		Username:  opts.Access.Username,
		Password:  opts.Access.Password,
		TLSConfig: opts.Access.TLS,
		PoolSize:  opts.PoolSize,
		// Never resend a SET NX: a retry after a lost reply answers "taken" for a lock
		// the first send already granted to us.
		MaxRetries:      -1,
		DialTimeout:     opts.CommandTimeout(),
		ReadTimeout:     opts.CommandTimeout(),
		WriteTimeout:    opts.CommandTimeout(),
		DisableIdentity: true,
		Dialer:          opts.Dialer,
		Protocol:        2, // RESP3 push handling costs a socket peek per command
		// Pipelines (wait's SET + WAIT) share the main pool, sized to the clients and
		// warmed before a run, instead of a pool of 10 of their own that dials lazily.
		PipelinePoolSize: -1,
	}), purpose, opts.KeyPrefix)
}

// NewFailoverClient is how every client of a sentinel-watched master is made: the
// settings of NewClient and purpose's allow-list on the master's connections.
func NewFailoverClient(sentinelAddrs []string, masterName, purpose string, opts Options) *redis.Client {
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
		MaxRetries:       -1, // see NewClient: never resend a SET NX
		DialTimeout:      opts.CommandTimeout(),
		ReadTimeout:      opts.CommandTimeout(),
		WriteTimeout:     opts.CommandTimeout(),
		DisableIdentity:  true,
		Dialer:           opts.Dialer,
		Protocol:         2, // RESP3 push handling costs a socket peek per command
	}), purpose, opts.KeyPrefix)
}
