package safety

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
)

// The etcd scenarios reach etcd only through the locks registry (strategies "etcd" and
// "etcd-3") and the Node handles, so this package does not import etcd's dependency
// tree: a program that runs them imports github.com/lockbench/lockbench/locks/etcdlock.

// startEtcd starts the topology of an etcd strategy through env.
func startEtcd(ctx context.Context, env *Env, strategy string) (topologies.Topology, error) {
	spec, err := locks.TopologyFor(strategy)
	if err != nil {
		return nil, fmt.Errorf("%w (etcd strategies register when locks/etcdlock is imported)", err)
	}
	return env.start(ctx, spec)
}

// etcdClient is a recorded client over its own etcd locker.
func etcdClient(ctx context.Context, strategy string, topo topologies.Topology, id string, rec *Recorder) (*Client, func(), error) {
	l, err := locks.ForTopology(ctx, strategy, topo, locks.Options{})
	if err != nil {
		return nil, nil, fmt.Errorf("client %s: %w", id, err)
	}
	return NewClient(id, l, rec), func() { l.Close() }, nil
}

// leaderWaiter is what an etcd topology offers to find its leader (etcdtopo.Cluster).
type leaderWaiter interface {
	WaitLeader(ctx context.Context) (topologies.Node, error)
}

// etcdLeader waits up to timeout for the members to agree on a leader.
func etcdLeader(ctx context.Context, topo topologies.Topology, timeout time.Duration) (topologies.Node, error) {
	lw, ok := topo.(leaderWaiter)
	if !ok {
		return nil, fmt.Errorf("topology from provider %s cannot name its leader", topo.Provider())
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return lw.WaitLeader(ctx)
}

// releaseSoon retries a release that fails for other reasons than "not held" (an
// election in progress) until it answers or ctx ends.
func releaseSoon(ctx context.Context, c *Client, lease locks.Lease) {
	for ctx.Err() == nil {
		attempt, cancel := context.WithTimeout(ctx, 2*time.Second)
		err := c.Release(attempt, lease)
		cancel()
		if err == nil || errors.Is(err, locks.ErrNotHeld) || errors.Is(err, ErrCrashed) {
			return
		}
		_ = sleep(ctx, 50*time.Millisecond)
	}
}
