package lab

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/topologies"
)

// sentinelStore is a sentinel-managed master and its replicas: the primary is
// whoever the sentinels name, and a promotion is a majority of them naming another.
type sentinelStore struct{ RedisStore }

func init() {
	registerStore(topologies.Sentinel, func(strategy string, spec topologies.Spec) Store {
		return sentinelStore{RedisStore{strategy: strategy, spec: spec}}
	})
}

func (s sentinelStore) FenceSource() string {
	return "INCR fence:<key> on the master at grant time (asynchronously replicated)"
}

func (s sentinelStore) Primary(ctx context.Context, topo topologies.Topology) (topologies.Node, error) {
	addr, err := topologies.SentinelMasterAddr(ctx, topo.Sentinels()[0].Addr(), topo.Spec().MasterName)
	if err != nil {
		return nil, err
	}
	return nodeAt(topo, addr)
}

func (s sentinelStore) AwaitPromotion(ctx context.Context, topo topologies.Topology, old topologies.Node) (topologies.Node, error) {
	addr, err := topologies.WaitForNewMaster(ctx, topologies.Addrs(topo.Sentinels()), topo.Spec().MasterName, old.Addr())
	if err != nil {
		return nil, err
	}
	return nodeAt(topo, addr)
}

// Lag makes every replica of primary stop applying its stream (CLIENT PAUSE) for long
// enough that the master dies first: the promoted replica drops what it held unapplied.
// The replicas are primary's others, not the topology's first ones: a re-formed
// deployment may have promoted one of those.
func (s sentinelStore) Lag(ctx context.Context, t *Trial, topo topologies.Topology, primary topologies.Node) (func(context.Context) error, error) {
	if _, err := nemesis.Inject(ctx, "replication-pause", nemesis.Target{Topology: topo, Nodes: ReplicasOf(topo, primary), Duration: 2 * time.Second, Recorder: t.Rec}); err != nil {
		return nil, err
	}
	return nemesis.NoHeal, nil
}

// Synced waits until both replicas acknowledged every write so far (WAIT).
func (s sentinelStore) Synced(ctx context.Context, topo topologies.Topology, primary topologies.Node) error {
	n := len(topo.Replicas())
	c := PlainClient(primary.Addr())
	defer c.Close()
	acked, err := c.Do(ctx, "WAIT", n, 2000).Int()
	if err != nil {
		return fmt.Errorf("WAIT %d: %w", n, err)
	}
	if acked < n {
		return fmt.Errorf("WAIT %d: only %d replicas acknowledged in 2 s", n, acked)
	}
	return nil
}

// Fence reads the fencing counter of key on node: after a failover, a promoted replica
// that missed writes holds a smaller one.
func (s sentinelStore) Fence(ctx context.Context, node topologies.Node, key string) (int64, error) {
	c := PlainClient(node.Addr())
	defer c.Close()
	n, err := c.Get(ctx, FenceKey(key)).Int64()
	if errors.Is(err, redis.Nil) {
		return 0, nil
	}
	return n, err
}
