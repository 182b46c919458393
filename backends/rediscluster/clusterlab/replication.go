package clusterlab

import (
	"context"

	"github.com/lockbench/lockbench/backends/rediscluster"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
)

// Lag cuts every replica of primary (the key's master) off until the master is dead,
// as Sentinel's adapter does: the replica promoted after the kill never saw the writes
// that followed.
func (s store) Lag(ctx context.Context, t *lab.Trial, topo topologies.Topology,
	primary topologies.Node) (func(context.Context) error, error) {
	replicas, err := s.ReplicasOf(ctx, topo, primary)
	if err != nil {
		return nil, err
	}
	return lab.CutReplicas(ctx, t, primary, replicas)
}

// Synced waits until every replica of primary acknowledged every write so far (WAIT).
func (s store) Synced(ctx context.Context, topo topologies.Topology, primary topologies.Node) error {
	replicas, err := s.ReplicasOf(ctx, topo, primary)
	if err != nil {
		return err
	}
	return lab.AwaitAcks(ctx, primary, len(replicas))
}

// Fence reads cluster-fenced's counter of key on node (the counter in the key's slot).
func (s store) Fence(ctx context.Context, node topologies.Node, key string) (int64, error) {
	fenceKey, err := rediscluster.FenceKey(key)
	if err != nil {
		return 0, err
	}
	return lab.ReadCounter(ctx, node, fenceKey)
}
