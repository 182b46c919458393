package rediscluster

import (
	"context"
	"fmt"
	"strings"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/redis/redistopo"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// node is one cluster member: a redis-server with cluster-enabled, supervised, on a
// client port and a bus port both leased (the bus port is set by cluster-port, so it
// is leased like the other instead of assumed free at port+10000).
type node struct {
	*redistopo.ServerNode
	busPort int
}

func newNode(bin, name string, role topologies.Role, dir string, port, busPort int) *node {
	return &node{ServerNode: redistopo.NewServerNode(name, role, bin, dir, port, nil, nil), busPort: busPort}
}

// config is the node's redis-server config: loopback only, cluster mode with the
// spec's node timeout, no persistence unless asked, replication that streams at once.
func (n *node) config(spec backend.Spec) string {
	lines := append(redisadmin.LoopbackListens(n.Port()), redisadmin.RedisDataConfig(spec.AppendFsync)...)
	lines = append(lines, NodeConfig(spec, n.busPort)...)
	lines = append(lines, spec.ExtraConfig...)
	return strings.Join(lines, "\n") + "\n"
}

// A restarted node keeps nodes.conf, its identity in the cluster (ServerNode.Restart
// forgets only the data): a node whose disk of data was lost rejoins as itself, and a
// master that did so comes back with its slots and no keys unless a replica took them
// over meanwhile.

func (n *node) stop() {
	n.Close()
	topologies.ReleasePort(n.Port())
	topologies.ReleasePort(n.busPort)
}

// fields runs a command answering key:value lines (CLUSTER INFO).
func fields(ctx context.Context, addr string, args ...any) (map[string]string, error) {
	v, err := redisadmin.AdminQuery(ctx, addr, args...)
	if err != nil {
		return nil, err
	}
	s, ok := v.(string)
	if !ok {
		return nil, fmt.Errorf("%v on %s: reply %T, want text", args, addr, v)
	}
	out := map[string]string{}
	for _, line := range strings.Split(s, "\n") {
		if k, val, ok := strings.Cut(strings.TrimSpace(line), ":"); ok {
			out[k] = val
		}
	}
	return out, nil
}
