// Package zklab is ZooKeeper's safety adapter: how the lab's scenarios reach an
// ensemble (its leader, its shortest session, a lagging follower).
package zklab

import (
	"context"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/zookeeper/zktopo"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
)

// zkStore is a ZooKeeper ensemble, reached only through the locks registry (strategies
// zookeeper, zookeeper-3) and the topology's leader, so this package does not carry the
// ZooKeeper client: a program that runs it imports backends/zookeeper/zklock. Its leases carry the
// lock node's czxid as their fence.
type zkStore struct{ lab.ConsensusStore }

// New is the adapter of strategy's ensemble.
func New(strategy string, spec backend.Spec) lab.Store {
	return zkStore{lab.ConsensusStoreOf(strategy, spec)}
}

// zkMinSession is the shortest session the registered ZooKeeper topology grants: 2 ticks.
const zkMinSession = 2 * zktopo.DefaultTickTime

// Locker ignores fenced: every ZooKeeper lease has its czxid. The locker refuses a ttl
// below the minimum session; the store asks for the minimum instead, as etcd's server
// raises a short lease by itself, so that the scenarios' short ttls run here too.
func (s zkStore) Locker(ctx context.Context, topo topologies.Topology, _ bool) (locks.Locker, error) {
	l, err := locks.ForTopology(ctx, s.Strategy(), topo, locks.Options{})
	if err != nil {
		return nil, err
	}
	return atLeastMinSession{l}, nil
}

// atLeastMinSession raises every ttl to ZooKeeper's minimum session timeout.
type atLeastMinSession struct{ locks.Locker }

func (l atLeastMinSession) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	if ttl > 0 {
		ttl = max(ttl, zkMinSession)
	}
	return l.Locker.Acquire(ctx, key, ttl)
}

func (l atLeastMinSession) Extend(ctx context.Context, lease locks.Lease, ttl time.Duration) (locks.Lease, error) {
	if ttl > 0 {
		ttl = max(ttl, zkMinSession)
	}
	return l.Locker.Extend(ctx, lease, ttl)
}
