package lab

import (
	"context"

	"github.com/lockbench/lockbench/topologies"
)

// ReplicationControl is a store whose followers a scenario can make lag, or wait for.
type ReplicationControl interface {
	// Lag makes the followers of primary miss the writes that follow, as far as the store
	// lets it go on working; the func returned ends the lag, once the primary is dead.
	Lag(ctx context.Context, t *Trial, topo topologies.Topology, primary topologies.Node) (func(context.Context) error,
		error)
	// Synced waits until every follower has every write so far.
	Synced(ctx context.Context, topo topologies.Topology, primary topologies.Node) error
}

// FollowerEmptyRestarter is a store whose follower can lose its disk and rejoin, the
// restart proven by the store's own probes (its data dir, its servers' state).
type FollowerEmptyRestarter interface {
	// RestartFollowerEmpty restarts a follower of primary without its data and returns
	// it once the trial has proof of both halves: the disk was empty and the server
	// caught up from the leader; otherwise the trial's NoFault or Failed error.
	RestartFollowerEmpty(ctx context.Context, t *Trial, topo topologies.Topology,
		primary topologies.Node) (topologies.Node, error)
}

// FenceReader reads the fence counter of a key on one node.
type FenceReader interface {
	Fence(ctx context.Context, node topologies.Node, key string) (int64, error)
}

// RegisteredOf keeps the strategies this program registered (ZooKeeper's only when
// backends/zookeeper/zklock is imported), in order.
func RegisteredOf(strategies []string) []string {
	var out []string
	for _, st := range strategies {
		if _, err := StoreFor(st); err == nil {
			out = append(out, st)
		}
	}
	return out
}

// PartialFence is a store whose fenced locker does not number every grant (Redlock
// counts on master 0 alone).
type PartialFence interface {
	// FenceOrdersEveryGrant says whether every grant passes through the fence.
	FenceOrdersEveryGrant() bool
}

// FenceOrdersEveryGrant says whether every grant of the store's fenced locker passes
// through its counter, so that a write guard can compare tokens (stores say otherwise
// by PartialFence).
func FenceOrdersEveryGrant(s Store) bool {
	if p, ok := s.(PartialFence); ok {
		return p.FenceOrdersEveryGrant()
	}
	return true
}
