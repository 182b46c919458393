package lab

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/topologies"
)

// ConsensusStore is what every consensus store's adapter shares (etcd's, ZooKeeper's):
// a strategy and its spec, the leader as primary, a fence from the replicated log, a
// lagging follower paused, the lease its descriptor says its servers grant, the fence
// its kind names. An adapter embeds it and adds its locker.
type ConsensusStore struct {
	name string
	spec backend.Spec
}

// ConsensusStoreOf is the adapter's shared part for strategy on spec.
func ConsensusStoreOf(strategy string, spec backend.Spec) ConsensusStore {
	return ConsensusStore{name: strategy, spec: spec}
}

func (s ConsensusStore) Strategy() string   { return s.name }
func (s ConsensusStore) Spec() backend.Spec { return s.spec }

// GrantedTTL is the lease the store's servers grant when asked for ttl, by the lease
// rule its descriptor declares (etcd: whole seconds, at least 2 s).
func (s ConsensusStore) GrantedTTL(ttl time.Duration) time.Duration {
	return linked.Catalog().LeaseOf(s.name).Granted(ttl)
}

// Primary is the leader, once the members agree on one.
func (s ConsensusStore) Primary(ctx context.Context, topo topologies.Topology) (topologies.Node, error) {
	return WaitLeader(ctx, topo)
}

// AwaitPromotion waits for a leader other than old.
func (s ConsensusStore) AwaitPromotion(ctx context.Context, topo topologies.Topology,
	old topologies.Node) (topologies.Node, error) {
	return AwaitNewLeader(ctx, topo, old)
}

// FenceSource names the number the kind's grants carry (its backend.OwnFence).
func (s ConsensusStore) FenceSource() string {
	if f, ok := backend.CanOf[backend.OwnFence](linked.Catalog(), s.spec.Kind); ok {
		return f.OwnFence()
	}
	return "none: the kind declares no fence of its own"
}

// FenceLinearizable: the fence comes from the replicated log, whose election picks only
// a member holding every committed entry (raft, ZAB).
func (s ConsensusStore) FenceLinearizable() bool { return true }

// Lag pauses one follower of primary (a minority: the others still commit) and resumes
// it once the primary is dead, so that it lagged until the last moment.
func (s ConsensusStore) Lag(ctx context.Context, t *Trial, topo topologies.Topology,
	primary topologies.Node) (func(context.Context) error, error) {
	follower, err := FollowerOf(topo, primary)
	if err != nil {
		return nil, fmt.Errorf("%w to pause", err)
	}
	return nemesis.Inject(ctx, "node-pause",
		nemesis.Target{Topology: topo, Nodes: []topologies.Node{follower}, Recorder: t.Rec})
}

// Synced has nothing to wait for: a granted write is committed on a quorum.
func (s ConsensusStore) Synced(context.Context, topologies.Topology, topologies.Node) error {
	return nil
}

// FollowerOf is the first node of topo other than primary.
func FollowerOf(topo topologies.Topology, primary topologies.Node) (topologies.Node, error) {
	for _, n := range topo.Nodes() {
		if n.Name() != primary.Name() {
			return n, nil
		}
	}
	return nil, fmt.Errorf("no follower of %s", primary.Name())
}

// leaderWaiter is what a consensus topology offers to find its leader (etcd's and
// ZooKeeper's, processes and containers).
type leaderWaiter interface {
	WaitLeader(ctx context.Context) (topologies.Node, error)
}

// WaitLeader is the leader of a consensus topology (etcd, ZooKeeper), once it has one.
func WaitLeader(ctx context.Context, topo topologies.Topology) (topologies.Node, error) {
	lw, ok := topo.(leaderWaiter)
	if !ok {
		return nil, fmt.Errorf("topology from provider %s cannot name its leader", topo.Provider())
	}
	return lw.WaitLeader(ctx)
}

// AwaitNewLeader polls until a consensus topology has a leader other than old.
func AwaitNewLeader(ctx context.Context, topo topologies.Topology, old topologies.Node) (topologies.Node, error) {
	for {
		leader, err := WaitLeader(ctx, topo)
		if err == nil && leader.Name() != old.Name() {
			return leader, nil
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("no leader other than %s (last: %v): %w", old.Name(), err, ctx.Err())
		}
		if Sleep(ctx, 20*time.Millisecond) != nil {
			return nil, fmt.Errorf("no leader other than %s: %w", old.Name(), ctx.Err())
		}
	}
}
