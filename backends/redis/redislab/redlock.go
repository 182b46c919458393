package redislab

import (
	"context"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
)

// redlockStore is N independent masters. Redlock has no global counter: a fenced
// locker counts on master 0 alone, which is all a Redlock user can do, and is said so.
type redlockStore struct{ masterStore }

func (s redlockStore) FenceSource() string {
	return "INCR fence:<key> on master 0 only (Redlock has no global counter)"
}

// FenceOrdersEveryGrant: master 0's counter orders no grant taken on the other masters.
func (redlockStore) FenceOrdersEveryGrant() bool { return false }

func (s redlockStore) Locker(ctx context.Context, topo topologies.Topology, fenced bool) (locks.Locker, error) {
	return s.locker(ctx, topo, fenced, topo.Masters()[0].Addr())
}
