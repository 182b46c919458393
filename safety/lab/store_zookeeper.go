package lab

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/zktopo"
)

// zkStore is a ZooKeeper ensemble, reached only through the locks registry (strategies
// zookeeper, zookeeper-3) and the topology's leader, so this package does not carry the
// ZooKeeper client: a program that runs it imports locks/zklock. Its leases carry the
// lock node's czxid as their fence.
type zkStore struct {
	strategy string
	spec     topologies.Spec
}

func init() {
	registerStore(topologies.ZooKeeper, func(strategy string, spec topologies.Spec) Store {
		return zkStore{strategy: strategy, spec: spec}
	})
}

// zkMinSession is the shortest session the registered ZooKeeper topology grants: 2 ticks.
const zkMinSession = 2 * zktopo.DefaultTickTime

func (s zkStore) Strategy() string      { return s.strategy }
func (s zkStore) Spec() topologies.Spec { return s.spec }
func (s zkStore) FenceSource() string {
	return "the lock node's czxid (ZAB-ordered zxid)"
}

// GrantedTTL: a session timeout is whole milliseconds, between 2 ticks and the maximum.
func (s zkStore) GrantedTTL(ttl time.Duration) time.Duration {
	whole := (ttl + time.Millisecond - 1) / time.Millisecond * time.Millisecond
	return min(max(whole, zkMinSession), zktopo.MaxSessionTimeout)
}

// Locker ignores fenced: every ZooKeeper lease has its czxid. The locker refuses a ttl
// below the minimum session; the store asks for the minimum instead, as etcd's server
// raises a short lease by itself, so that the scenarios' short ttls run here too.
func (s zkStore) Locker(ctx context.Context, topo topologies.Topology, _ bool) (locks.Locker, error) {
	l, err := locks.ForTopology(ctx, s.strategy, topo, locks.Options{})
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

func (s zkStore) Primary(ctx context.Context, topo topologies.Topology) (topologies.Node, error) {
	return WaitLeader(ctx, topo)
}

func (s zkStore) AwaitPromotion(ctx context.Context, topo topologies.Topology, old topologies.Node) (topologies.Node, error) {
	return awaitNewLeader(ctx, topo, old)
}

// FenceLinearizable: the zxid comes from ZAB, which elects only a server holding every
// committed transaction of a quorum.
func (s zkStore) FenceLinearizable() bool { return true }

// Lag pauses one follower of primary (a minority: the others still commit) and resumes
// it just before the primary is killed, so that it lagged until the last moment.
func (s zkStore) Lag(ctx context.Context, t *Trial, topo topologies.Topology, primary topologies.Node) (func(context.Context) error, error) {
	for _, n := range topo.Nodes() {
		if n.Name() != primary.Name() {
			return nemesis.Inject(ctx, "node-pause", nemesis.Target{Topology: topo, Nodes: []topologies.Node{n}, Recorder: t.Rec})
		}
	}
	return nil, fmt.Errorf("no follower of %s to pause", primary.Name())
}

// Synced has nothing to wait for: a granted ZooKeeper write is committed on a quorum.
func (s zkStore) Synced(context.Context, topologies.Topology, topologies.Node) error { return nil }
