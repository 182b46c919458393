package lab

import (
	"context"
	"errors"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/topologies"
)

// What the Redis adapters with replicas share (sentinel's, a cluster's): their lag, their
// sync and their fence counter, given the replicas and the key they are asked for.

// CutReplicas stops replicas (SIGSTOP) and kills their links on primary: primary's
// later writes go nowhere, however long the trial takes to reach the kill. The func
// returned resumes them; it runs once primary is dead, so that they reconnect to
// nothing (a stopped replica could not be promoted).
func CutReplicas(ctx context.Context, t *Trial, primary topologies.Node,
	replicas []topologies.Node) (func(context.Context) error, error) {
	return nemesis.Inject(ctx, "replication-link-kill",
		nemesis.Target{Nodes: append([]topologies.Node{primary}, replicas...), Recorder: t.Rec})
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
