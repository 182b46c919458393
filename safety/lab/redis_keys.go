package lab

import (
	"context"
	"fmt"

	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// RedisKeys reads a lock key on a Redis node, as the next client would find it: the
// KeyReader of every Redis deployment (the scenarios that watch one master's key use
// it directly).
type RedisKeys struct{}

func (RedisKeys) ReadKey(ctx context.Context, _ topologies.Topology, primary topologies.Node,
	key string) (redisadmin.KeyState, error) {
	return redisadmin.ReadKey(ctx, primary.Addr(), key)
}

// NodeAt is the node of topo listening on addr (an address a sentinel or a cluster
// names).
func NodeAt(topo topologies.Topology, addr string) (topologies.Node, error) {
	for _, n := range topo.Nodes() {
		if n.Addr() == addr {
			return n, nil
		}
	}
	return nil, fmt.Errorf("no node of the topology listens on %s", addr)
}
