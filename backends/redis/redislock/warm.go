package redislock

import (
	"context"
	"errors"
	"fmt"

	"github.com/redis/go-redis/v9"
)

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
