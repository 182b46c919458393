package bench

import (
	"context"

	"github.com/lockbench/lockbench/locks"
)

// warm opens every client's connections before the clock starts, unless the load says
// not to: a client's first attempt would otherwise time a dial (at redlock with 64
// clients, about 1.4% of the samples: enough to move p99).
func warm(ctx context.Context, l locks.Locker, load Load) error {
	if load.NoWarm {
		return nil
	}
	return locks.Warm(ctx, l, locks.WarmUp{Clients: load.Clients, TTL: load.TTL})
}
