package rediscluster

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
	"github.com/lockbench/lockbench/topologies/supervise"
)

// node is one cluster member: a redis-server with cluster-enabled, supervised, on a
// client port and a bus port both leased (the bus port is set by cluster-port, so it
// is leased like the other instead of assumed free at port+10000).
type node struct {
	*supervise.Node
	name    string
	role    topologies.Role
	dir     string
	port    int
	busPort int
}

func newNode(bin, name string, role topologies.Role, dir string, port, busPort int) *node {
	n := &node{name: name, role: role, dir: dir, port: port, busPort: busPort}
	n.Node = supervise.New(supervise.Config{
		Name: name,
		Addr: n.Addr,
		Command: func() (*exec.Cmd, error) {
			cmd := exec.Command(bin, n.confPath())
			cmd.Dir = dir
			return cmd, nil
		},
		Logs:    []string{n.logPath()},
		Ready:   func(ctx context.Context) error { return redisadmin.AdminDo(ctx, n.Addr(), "PING") },
		Every:   5 * time.Millisecond,
		Attempt: 200 * time.Millisecond,
	})
	return n
}

func (n *node) Name() string          { return n.name }
func (n *node) Role() topologies.Role { return n.role }
func (n *node) Addr() string          { return net.JoinHostPort("127.0.0.1", strconv.Itoa(n.port)) }
func (n *node) confPath() string      { return filepath.Join(n.dir, "server.conf") }
func (n *node) logPath() string       { return filepath.Join(n.dir, "server.log") }

// config is the node's redis-server config: loopback only, cluster mode with the
// spec's node timeout, no persistence unless asked, replication that streams at once.
func (n *node) config(spec topologies.Spec) string {
	lines := append(redisadmin.LoopbackListens(n.port), redisadmin.RedisDataConfig(spec.AppendFsync)...)
	lines = append(lines, NodeConfig(spec, n.busPort)...)
	lines = append(lines, spec.ExtraConfig...)
	return strings.Join(lines, "\n") + "\n"
}

// Restart kills the node and starts it on the same ports. RestartEmpty forgets its
// keys but keeps nodes.conf, its identity in the cluster: a node whose disk of data was
// lost rejoins as itself, and a master that did so comes back with its slots and no keys
// unless a replica took them over meanwhile.
func (n *node) Restart(ctx context.Context, mode topologies.RestartMode) error {
	var snapshot func(context.Context) error
	if mode == topologies.RestartWithSnapshot {
		snapshot = func(ctx context.Context) error { return redisadmin.AdminDo(ctx, n.Addr(), "SAVE") }
	}
	var forget func() error
	if mode == topologies.RestartEmpty {
		forget = func() error {
			for _, f := range []string{"dump.rdb", "appendonlydir"} {
				if err := os.RemoveAll(filepath.Join(n.dir, f)); err != nil {
					return fmt.Errorf("%s: forget data: %w", n.name, err)
				}
			}
			return nil
		}
	}
	return n.Node.Restart(ctx, snapshot, forget)
}

func (n *node) stop() {
	n.Close()
	topologies.ReleasePort(n.port)
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
