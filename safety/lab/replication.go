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

// What the Redis adapters with replicas share (sentinel's, a cluster's): their lag, their
// sync and their fence counter, given the replicas and the key they are asked for.

// replicaLag is how long a lagging Redis replica stops applying its master's stream:
// long enough that the master is killed and a replica promoted first.
const replicaLag = 2 * time.Second

// PauseReplicas makes replicas stop applying their master's stream (CLIENT PAUSE) for
// replicaLag: a replica promoted meanwhile drops what it held unapplied. Nothing to heal.
func PauseReplicas(ctx context.Context, t *Trial, topo topologies.Topology,
	replicas []topologies.Node) (func(context.Context) error, error) {
	if _,
		err := nemesis.Inject(ctx, "replication-pause",
		nemesis.Target{Topology: topo, Nodes: replicas, Duration: replicaLag, Recorder: t.Rec}); err != nil {
		return nil, err
	}
	return nemesis.NoHeal, nil
}

// AwaitAcks waits until n replicas of primary acknowledged every write so far (WAIT).
func AwaitAcks(ctx context.Context, primary topologies.Node, n int) error {
	c := PlainClient(primary.Addr())
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

// ReadCounter reads an INCR counter on node, 0 when it is absent: a promoted replica
// that missed writes holds a smaller one.
func ReadCounter(ctx context.Context, node topologies.Node, key string) (int64, error) {
	c := PlainClient(node.Addr())
	defer c.Close()
	n, err := c.Get(ctx, key).Int64()
	if errors.Is(err, redis.Nil) {
		return 0, nil
	}
	return n, err
}
