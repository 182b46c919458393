package release

import (
	"context"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/history"
	"github.com/lockbench/lockbench/safety/lab"
)

// threeClients makes clients A, B and C of the single master at addr, each on a
// connection of its own, its locker the plain single one or what wrap makes of it;
// closeAll closes them all.
func threeClients(ctx context.Context, addr string, rec *history.Recorder,
	wrap func(id string, l locks.Locker) locks.Locker) (clients []*lab.Client, closeAll func(), err error) {
	closeAll = func() {
		for _, c := range clients {
			c.Locker.Close()
		}
	}
	for _, id := range []string{"A", "B", "C"} {
		l, err := locks.AtAddrs(ctx, "single", []string{addr}, locks.Options{})
		if err != nil {
			closeAll()
			return nil, nil, lab.Failed("setup", err)
		}
		clients = append(clients, lab.NewClient(id, wrap(id, l), rec))
	}
	return clients, closeAll, nil
}

// workDone takes the lock for c and does its work in res (enter, write, leave): a
// holder with only its release left.
func workDone(ctx context.Context, c *lab.Client, res *lab.Resource, key string, ttl time.Duration) (locks.Lease,
	error) {
	lease, err := c.Acquire(ctx, key, ttl)
	if err != nil {
		return lease, lab.FirstGrant(err)
	}
	if err := c.Enter(ctx, res, lease); err != nil {
		return lease, err
	}
	c.Write(ctx, res, lease)
	c.Leave(res, lease)
	return lease, nil
}
