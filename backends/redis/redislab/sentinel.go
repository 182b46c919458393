package redislab

import (
	"context"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// sentinelStore is a sentinel-managed master and its replicas: the primary is
// whoever the sentinels name, and a promotion is a majority of them naming another.
type sentinelStore struct{ masterStore }

func (s sentinelStore) FenceSource() string {
	return "INCR fence:<key> on the master at grant time (asynchronously replicated)"
}

func (s sentinelStore) Primary(ctx context.Context, topo topologies.Topology) (topologies.Node, error) {
	addr, err := redisadmin.SentinelMasterAddr(ctx, topo.Sentinels()[0].Addr(), topo.Spec().MasterName)
	if err != nil {
		return nil, err
	}
	return lab.NodeAt(topo, addr)
}

func (s sentinelStore) AwaitPromotion(ctx context.Context, topo topologies.Topology,
	old topologies.Node) (topologies.Node, error) {
	addr, err := redisadmin.WaitForNewMaster(ctx, topologies.Addrs(topo.Sentinels()), topo.Spec().MasterName, old.Addr())
	if err != nil {
		return nil, err
	}
	return lab.NodeAt(topo, addr)
}

// Lag cuts every replica of primary off (stopped, its link killed) until the master is
// dead. The replicas are primary's others, not the topology's first ones: a re-formed
// deployment may have promoted one of those.
func (s sentinelStore) Lag(ctx context.Context, t *lab.Trial, topo topologies.Topology,
	primary topologies.Node) (func(context.Context) error, error) {
	return lab.CutReplicas(ctx, t, primary, lab.ReplicasOf(topo, primary))
}

// Synced waits until both replicas acknowledged every write so far (WAIT).
func (s sentinelStore) Synced(ctx context.Context, topo topologies.Topology, primary topologies.Node) error {
	return lab.AwaitAcks(ctx, primary, len(topo.Replicas()))
}

// Fence reads the fencing counter of key on node.
func (s sentinelStore) Fence(ctx context.Context, node topologies.Node, key string) (int64, error) {
	return lab.ReadCounter(ctx, node, lab.FenceKey(key))
}
