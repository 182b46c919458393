// Package pooloptions configures a locker that keeps a pool of server connections or
// sessions (pglock, zklock): the pool's size, the bound of every call, and the dialer.
package pooloptions

import (
	"context"
	"fmt"
	"net"
	"time"
)

// Options configure a locker's pool; each locker says what its pool holds and its
// defaults.
type Options struct {
	// PoolSize is how many connections or sessions the locker keeps (0: its default).
	PoolSize int
	// Timeout bounds every call to the servers, connecting included (0: its default): a
	// paused server makes calls fail, never hang.
	Timeout time.Duration
	// Dialer, if set, opens every connection (a network profile's proxies).
	Dialer func(ctx context.Context, network, addr string) (net.Conn, error)
}

// WithDefaults is o with poolSize and timeout where o leaves them unset; a negative
// PoolSize is an error, named for the locker name.
func (o Options) WithDefaults(name string, poolSize int, timeout time.Duration) (Options, error) {
	if o.PoolSize < 0 {
		return o, fmt.Errorf("%s: pool size = %d: must be >= 0", name, o.PoolSize)
	}
	if o.PoolSize == 0 {
		o.PoolSize = poolSize
	}
	if o.Timeout <= 0 {
		o.Timeout = timeout
	}
	return o, nil
}
