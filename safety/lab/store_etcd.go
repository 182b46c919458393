package lab

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/topologies"
)

// etcdStore is an etcd cluster, reached only through the locks registry (strategies
// etcd, etcd-3...) and the topology's leader, so this package does not carry etcd's
// dependency tree: a program that runs it imports locks/etcdlock. Its leases carry
// the lock key's create revision as their fence.
type etcdStore struct {
	strategy string
	spec     topologies.Spec
}

func init() {
	registerStore(topologies.Etcd, func(strategy string, spec topologies.Spec) Store {
		return etcdStore{strategy: strategy, spec: spec}
	})
}

// etcdMinLease is the shortest lease etcd grants with the embedded cluster's election
// timeout (leases are whole seconds, at least about 1.5 election timeouts).
const etcdMinLease = 2 * time.Second

func (s etcdStore) Strategy() string      { return s.strategy }
func (s etcdStore) Spec() topologies.Spec { return s.spec }
func (s etcdStore) FenceSource() string   { return "the lock key's create revision (raft-ordered)" }

func (s etcdStore) GrantedTTL(ttl time.Duration) time.Duration {
	whole := (ttl + time.Second - 1) / time.Second * time.Second
	return max(whole, etcdMinLease)
}

// Locker ignores fenced: every etcd lease has its revision.
func (s etcdStore) Locker(ctx context.Context, topo topologies.Topology, _ bool) (locks.Locker, error) {
	return locks.ForTopology(ctx, s.strategy, topo, locks.Options{})
}

// leaderWaiter is what an etcd topology offers to find its leader (etcdtopo.Cluster).
type leaderWaiter interface {
	WaitLeader(ctx context.Context) (topologies.Node, error)
}

func (s etcdStore) Primary(ctx context.Context, topo topologies.Topology) (topologies.Node, error) {
	return WaitLeader(ctx, topo)
}

func (s etcdStore) AwaitPromotion(ctx context.Context, topo topologies.Topology, old topologies.Node) (topologies.Node, error) {
	return awaitNewLeader(ctx, topo, old)
}

// WaitLeader is the leader of a consensus topology (etcd, ZooKeeper), once it has one.
func WaitLeader(ctx context.Context, topo topologies.Topology) (topologies.Node, error) {
	lw, ok := topo.(leaderWaiter)
	if !ok {
		return nil, fmt.Errorf("topology from provider %s cannot name its leader", topo.Provider())
	}
	return lw.WaitLeader(ctx)
}

// awaitNewLeader polls until a consensus topology has a leader other than old.
func awaitNewLeader(ctx context.Context, topo topologies.Topology, old topologies.Node) (topologies.Node, error) {
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

// FenceLinearizable: the revision comes from raft, which elects only a member holding
// every committed entry.
func (s etcdStore) FenceLinearizable() bool { return true }

// Lag pauses one follower of primary (a minority: the others still commit) and resumes
// it just before the primary is killed, so that it lagged until the last moment.
func (s etcdStore) Lag(ctx context.Context, t *Trial, topo topologies.Topology, primary topologies.Node) (func(context.Context) error, error) {
	var follower topologies.Node
	for _, n := range topo.Nodes() {
		if n.Name() != primary.Name() {
			follower = n
			break
		}
	}
	if follower == nil {
		return nil, fmt.Errorf("no follower of %s to pause", primary.Name())
	}
	return nemesis.Inject(ctx, "node-pause", nemesis.Target{Topology: topo, Nodes: []topologies.Node{follower}, Recorder: t.Rec})
}

// Synced has nothing to wait for: a granted etcd write is committed on a majority.
func (s etcdStore) Synced(context.Context, topologies.Topology, topologies.Node) error { return nil }
