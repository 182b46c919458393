package redistopo

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
	"github.com/lockbench/lockbench/topologies/supervise"
)

// ServerNode is one redis-server process this machine supervises: its config, log and
// data in its own dir, loopback on its port, PING as readiness. Redis's deployments
// and a cluster's nodes run on it.
type ServerNode struct {
	*supervise.Node
	name string
	role topologies.Role
	dir  string
	port int
}

// NewServerNode readies bin on dir's server.conf with args after it; env, when not
// nil, gives the variables added to this process's own (a fake-time preload). Nothing
// runs until Start.
func NewServerNode(name string, role topologies.Role, bin, dir string, port int, args []string,
	env func() []string) *ServerNode {
	n := &ServerNode{name: name, role: role, dir: dir, port: port}
	n.Node = supervise.New(supervise.Config{
		Name: name,
		Addr: n.Addr,
		Command: func() (*exec.Cmd, error) {
			cmd := exec.Command(bin, append([]string{n.ConfPath()}, args...)...)
			cmd.Dir = dir
			if env != nil {
				cmd.Env = append(os.Environ(), env()...)
			}
			return cmd, nil
		},
		Logs:    []string{n.LogPath()},
		Ready:   func(ctx context.Context) error { return redisadmin.AdminDo(ctx, n.Addr(), "PING") },
		Every:   5 * time.Millisecond,
		Attempt: 200 * time.Millisecond,
	})
	return n
}

func (n *ServerNode) Name() string          { return n.name }
func (n *ServerNode) Role() topologies.Role { return n.role }
func (n *ServerNode) Addr() string          { return net.JoinHostPort("127.0.0.1", strconv.Itoa(n.port)) }

// Port is the client port, leased until the node is closed for good.
func (n *ServerNode) Port() int { return n.port }

// ConfPath is the config file the server starts on.
func (n *ServerNode) ConfPath() string { return filepath.Join(n.dir, "server.conf") }

// LogPath is the server's log file.
func (n *ServerNode) LogPath() string { return filepath.Join(n.dir, "server.log") }

// Restart kills the node if it runs and starts it again on the same port; it saves
// first for RestartWithSnapshot, and forgets its data for RestartEmpty (files other
// than the data, a cluster's nodes.conf, are kept).
func (n *ServerNode) Restart(ctx context.Context, mode topologies.RestartMode) error {
	if err := topologies.RefuseHostCrash(n.name, mode); err != nil {
		return err
	}
	var snapshot func(context.Context) error
	if mode == topologies.RestartWithSnapshot {
		snapshot = func(ctx context.Context) error { return redisadmin.AdminDo(ctx, n.Addr(), "SAVE") }
	}
	var forget func() error
	if mode == topologies.RestartEmpty {
		forget = n.forgetData
	}
	return n.Node.Restart(ctx, snapshot, forget)
}

// forgetData removes what persistence wrote: a snapshot and the append-only files.
func (n *ServerNode) forgetData() error {
	for _, f := range []string{"dump.rdb", "appendonlydir"} {
		if err := os.RemoveAll(filepath.Join(n.dir, f)); err != nil {
			return fmt.Errorf("%s: forget data: %w", n.name, err)
		}
	}
	return nil
}
