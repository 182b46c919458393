package redisadmin

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// WaitPing polls addr until it answers PING or ctx ends: a server loading its data
// answers LOADING, which counts as not yet.
func WaitPing(ctx context.Context, addr string) error {
	var last error = errors.New("no answer yet")
	for {
		pctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
		err := AdminDo(pctx, addr, "PING")
		cancel()
		if err == nil {
			return nil
		}
		last = err
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (last: %v)", ctx.Err(), last)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// ServerTime is the server's wall clock (TIME): what a model clock is fitted to.
func ServerTime(ctx context.Context, addr string) (time.Time, error) {
	c := AdminClient(addr)
	defer c.Close()
	return c.Time(ctx).Result()
}
