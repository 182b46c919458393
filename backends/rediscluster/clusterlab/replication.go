package clusterlab

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/backends/rediscluster"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/topologies"
)

// lagPause is how long the key master's replicas stop applying its stream: past the
// default cluster-node-timeout, so that the master is killed and a replica promoted
// while they still hold the last writes unapplied.
const lagPause = 2 * time.Second

// Lag makes every replica of primary (the key's master) stop applying its stream
// (CLIENT PAUSE), as Sentinel's adapter does: the replica promoted after the kill drops
// what it held unapplied.
func (s store) Lag(ctx context.Context, t *lab.Trial, topo topologies.Topology, primary topologies.Node) (func(context.Context) error, error) {
	replicas, err := s.ReplicasOf(ctx, topo, primary)
	if err != nil {
		return nil, err
	}
	if _, err := nemesis.Inject(ctx, "replication-pause", nemesis.Target{Topology: topo, Nodes: replicas, Duration: lagPause, Recorder: t.Rec}); err != nil {
		return nil, err
	}
	return nemesis.NoHeal, nil
}

// Synced waits until every replica of primary acknowledged every write so far (WAIT).
func (s store) Synced(ctx context.Context, topo topologies.Topology, primary topologies.Node) error {
	replicas, err := s.ReplicasOf(ctx, topo, primary)
	if err != nil {
		return err
	}
	n := len(replicas)
	c := lab.PlainClient(primary.Addr())
	defer c.Close()
	acked, err := c.Do(ctx, "WAIT", n, 2000).Int()
	if err != nil {
		return fmt.Errorf("WAIT %d on %s: %w", n, primary.Name(), err)
	}
	if acked < n {
		return fmt.Errorf("WAIT %d on %s: only %d replicas acknowledged in 2 s", n, primary.Name(), acked)
	}
	return nil
}

// Fence reads cluster-fenced's counter of key on node (the counter in the key's slot):
// a promoted replica that missed writes holds a smaller one.
func (s store) Fence(ctx context.Context, node topologies.Node, key string) (int64, error) {
	fenceKey, err := rediscluster.FenceKey(key)
	if err != nil {
		return 0, err
	}
	c := lab.PlainClient(node.Addr())
	defer c.Close()
	n, err := c.Get(ctx, fenceKey).Int64()
	if errors.Is(err, redis.Nil) {
		return 0, nil
	}
	return n, err
}
