package pglock

import (
	"context"
	"errors"
	"sync"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/lockbench/lockbench/locks"
)

// Warm opens the connections w.Clients clients use at once (no more than the pool
// holds) by holding them all, each proved by a round trip, then gives them back idle.
func (l *Locker) Warm(ctx context.Context, w locks.WarmUp) error {
	n := min(w.Clients*l.connsPerClient, int(l.pool.Config().MaxConns))
	ctx, cancel := l.call(ctx)
	defer cancel()
	conns := make([]*pgxpool.Conn, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range conns {
		wg.Add(1)
		go func() { // in parallel: n connects in a row would cost n set-ups
			defer wg.Done()
			if conns[i], errs[i] = l.pool.Acquire(ctx); errs[i] == nil {
				errs[i] = conns[i].Ping(ctx)
			}
		}()
	}
	wg.Wait()
	for _, c := range conns {
		if c != nil {
			c.Release()
		}
	}
	return errors.Join(errs...)
}
