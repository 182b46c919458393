// Package clusterlab is the safety lab's adapter for Redis Cluster: where a key's
// master is, who replicates it, and when a replica has taken its place. clusterstore
// registers it; the descriptor does not import it, so what imports the descriptor alone
// does not link the lab.
package clusterlab

import (
	"context"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/rediscluster"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// New is the adapter of strategy's cluster.
func New(strategy string, spec backend.Spec) lab.Store { return store{strategy: strategy, spec: spec} }

type store struct {
	strategy string
	spec     backend.Spec
}

func (s store) Strategy() string                           { return s.strategy }
func (s store) Spec() backend.Spec                         { return s.spec }
func (s store) GrantedTTL(ttl time.Duration) time.Duration { return ttl }
func (s store) FenceSource() string {
	return "INCR fence:{key} in the lock key's slot, in the script that sets the key (asynchronously replicated)"
}

// Locker is the strategy's locker; a fenced one numbers its grants in the key's slot
// (cluster-fenced's script), cluster-wait's then waiting for the replica.
func (s store) Locker(ctx context.Context, topo topologies.Topology, fenced bool) (locks.Locker, error) {
	if fenced {
		seeds := topologies.Addrs(topo.Masters())
		if s.strategy == rediscluster.StrategyWait {
			return rediscluster.NewClusterWaitFenced(ctx, seeds, locks.WaitOptions{})
		}
		return rediscluster.NewClusterFenced(ctx, seeds, redisconn.Options{})
	}
	return locks.ForTopology(ctx, s.strategy, topo, locks.Options{})
}

func (s store) WaitLocker(ctx context.Context, topo topologies.Topology, replicas int,
	timeout time.Duration) (locks.Locker, error) {
	return rediscluster.NewClusterWait(ctx, topologies.Addrs(topo.Masters()),
		locks.WaitOptions{Replicas: replicas, Timeout: timeout})
}

// PlacedLocker is the strategy's locker, or with waitReplicas > 0 cluster-wait's, that
// learns the cluster from seeds and dials every node through dial.
func (s store) PlacedLocker(ctx context.Context, seeds []topologies.Node,
	dial func(ctx context.Context, network, addr string) (net.Conn, error), waitReplicas int,
	waitTimeout time.Duration) (locks.Locker, error) {
	opts := redisconn.Options{Dialer: dial}
	addrs := topologies.Addrs(seeds)
	switch {
	case waitReplicas > 0:
		return rediscluster.NewClusterWait(ctx, addrs,
			locks.WaitOptions{Options: opts, Replicas: waitReplicas, Timeout: waitTimeout})
	case s.strategy == rediscluster.StrategyFenced:
		return rediscluster.NewClusterFenced(ctx, addrs, opts)
	case s.strategy == rediscluster.StrategyWait:
		return rediscluster.NewClusterWait(ctx, addrs, locks.WaitOptions{Options: opts})
	}
	return rediscluster.NewCluster(ctx, addrs, opts)
}

func (s store) ReadKey(ctx context.Context, _ topologies.Topology, primary topologies.Node,
	key string) (redisadmin.KeyState, error) {
	return redisadmin.ReadKey(ctx, primary.Addr(), key)
}

// PrimaryFor asks every running node which master serves key's slot (CLUSTER SLOTS on
// the first that answers) and returns that node.
func (s store) PrimaryFor(ctx context.Context, topo topologies.Topology, key string) (topologies.Node, error) {
	for _, n := range topo.Nodes() {
		if !n.Running() {
			continue
		}
		if addr, err := rediscluster.KeyMaster(ctx, n.Addr(), key); err == nil {
			return lab.NodeAt(topo, addr)
		}
	}
	return nil, fmt.Errorf("no running node says which master serves %s", key)
}

// ReplicasOf are the running nodes whose master is primary now.
func (s store) ReplicasOf(ctx context.Context, topo topologies.Topology, primary topologies.Node) ([]topologies.Node,
	error) {
	var out []topologies.Node
	for _, n := range topo.Nodes() {
		if !n.Running() || n.Addr() == primary.Addr() {
			continue
		}
		repl, err := redisadmin.Replication(ctx, n.Addr())
		if err != nil {
			return nil, err
		}
		// A replica names its master still after the master died, until it is promoted.
		if repl.Role == "slave" && repl.MasterAddr == primary.Addr() {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s has no running replica", primary.Name())
	}
	return out, nil
}

// ClusterState is node's own cluster_state: "fail" once it cannot reach a majority of
// the masters, after cluster-node-timeout (it then refuses writes with CLUSTERDOWN).
func (s store) ClusterState(ctx context.Context, node topologies.Node) (string, error) {
	return rediscluster.State(ctx, node.Addr())
}

// FlagsOf are the flags observer gives node: "fail" once a majority of masters agreed
// it is down (the replica's election follows).
func (s store) FlagsOf(ctx context.Context, observer, node topologies.Node) ([]string, error) {
	return rediscluster.Flags(ctx, observer.Addr(), node.Addr())
}

// AwaitPromotion polls old's replicas until one reports role master: the bus elected it.
func (s store) AwaitPromotion(ctx context.Context, topo topologies.Topology, old topologies.Node) (topologies.Node,
	error) {
	replicas, err := s.ReplicasOf(ctx, topo, old)
	if err != nil {
		return nil, err
	}
	return awaitMasterAmong(ctx, old, replicas)
}

// awaitMasterAmong polls old's replicas until one reports role master.
func awaitMasterAmong(ctx context.Context, old topologies.Node, replicas []topologies.Node) (topologies.Node, error) {
	for {
		for _, r := range replicas {
			if role, err := redisadmin.CurrentRole(ctx, r.Addr()); err == nil && role == "master" {
				return r, nil
			}
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("no replica of %s (%s) became master: %w", old.Name(), names(replicas), ctx.Err())
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// answerWithin bounds each question to a node during a failover: a paused node must
// not hold up the poll of the others for long.
const answerWithin = time.Second

// AwaitPromotionOf is AwaitPromotion where old was key's master. Replicas stopped or
// paused by the trial cannot say whose replicas they are: then it asks the nodes
// that answer which master serves key now, until one other than old does and reports
// role master itself.
func (s store) AwaitPromotionOf(ctx context.Context, topo topologies.Topology, old topologies.Node,
	key string) (topologies.Node, error) {
	if replicas, err := s.ReplicasOf(ctx, topo, old); err == nil {
		return awaitMasterAmong(ctx, old, replicas)
	}
	var last error
	for {
		for _, n := range topo.Nodes() {
			if !n.Running() || n.Addr() == old.Addr() {
				continue
			}
			qctx, cancel := context.WithTimeout(ctx, answerWithin)
			master, err := rediscluster.KeyMaster(qctx, n.Addr(), key)
			if err == nil && master != old.Addr() {
				var role string
				if role, err = redisadmin.CurrentRole(qctx, master); err == nil && role == "master" {
					cancel()
					return lab.NodeAt(topo, master)
				}
			}
			cancel()
			if err != nil {
				last = err
			}
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("no master in place of %s for %s (last: %v): %w", old.Name(), key, last, ctx.Err())
		case <-time.After(5 * time.Millisecond):
		}
	}
}

func names(ns []topologies.Node) string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.Name()
	}
	return strings.Join(out, ", ")
}
