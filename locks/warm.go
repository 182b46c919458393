package locks

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// WarmUp says what a measurement is about to ask of a locker.
type WarmUp struct {
	// Clients is how many clients will call the locker at once: each needs a
	// connection (or session) of its own to every node.
	Clients int
	// TTL is the ttl the clients will ask for (ZooKeeper sessions are made per ttl).
	TTL time.Duration
}

// Warmer is a locker that can open, before a measurement, every connection its clients
// will use, so that no attempt inside the measurement pays for a dial.
type Warmer interface {
	// Warm opens up to w.Clients connections to every node, proves each with a round
	// trip, and leaves them idle in the locker's pools.
	Warm(ctx context.Context, w WarmUp) error
}

// Warm warms l if it is a Warmer; any other locker is left as it is.
func Warm(ctx context.Context, l Locker, w WarmUp) error {
	warmer, ok := l.(Warmer)
	if !ok || w.Clients < 1 {
		return nil
	}
	if err := warmer.Warm(ctx, w); err != nil {
		return fmt.Errorf("%s: warm up %d connections: %w", l.Strategy(), w.Clients, err)
	}
	return nil
}

// WarmClient warms one server's client as the SET NX lockers do: a store that keeps a
// client per node (a cluster's masters) calls it for each.
func WarmClient(ctx context.Context, c *redis.Client, n int) error { return warmRedis(ctx, c, n) }

// warmRedis opens n connections in client's pool (no more than it holds) by holding n
// sticky connections at once, each proved by a PING, then gives them all back idle.
func warmRedis(ctx context.Context, client redis.UniversalClient, n int) error {
	c, ok := client.(*redis.Client)
	if !ok {
		return fmt.Errorf("cannot warm a %T", client)
	}
	n = min(n, c.Options().PoolSize)
	conns := make([]*redis.Conn, n)
	errs := make([]error, n)
	done := make(chan int, n)
	for i := range conns {
		// In parallel: n dials in a row would cost n round trips of set-up.
		go func(i int) {
			conns[i] = c.Conn()
			errs[i] = conns[i].Ping(ctx).Err()
			done <- i
		}(i)
	}
	for range conns {
		<-done
	}
	for _, cn := range conns {
		_ = cn.Close() // back to the pool, idle
	}
	return errors.Join(errs...)
}
