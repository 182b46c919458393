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

	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/clocks/faketime"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
	"github.com/lockbench/lockbench/topologies/supervise"
)

// processNode is one redis-server (or sentinel) process, supervised.
type processNode struct {
	*supervise.Node
	name string
	role topologies.Role
	dir  string // this node's own dir: config, log, data
	port int
	skew *faketime.Node // drives this node's libfaketime; nil keeps true time
}

// newProcessNode readies a node that runs bin on its config in dir, with env added
// (a fake-time preload, say); nothing runs until start.
func newProcessNode(name string, role topologies.Role, bin, dir string, port int, env []string, skew *faketime.Node) *processNode {
	n := &processNode{name: name, role: role, dir: dir, port: port, skew: skew}
	n.Node = supervise.New(supervise.Config{
		Name: name,
		Addr: n.Addr,
		Command: func() (*exec.Cmd, error) {
			args := []string{n.confPath()}
			if role == topologies.RoleSentinel {
				args = append(args, "--sentinel")
			}
			cmd := exec.Command(bin, args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), env...)
			if skew != nil {
				cmd.Env = append(cmd.Env, skew.Env()...)
			}
			return cmd, nil
		},
		Logs:    []string{n.logPath()},
		Ready:   func(ctx context.Context) error { return redisadmin.AdminDo(ctx, n.Addr(), "PING") },
		Every:   5 * time.Millisecond,
		Attempt: 200 * time.Millisecond,
	})
	return n
}

func (n *processNode) Name() string          { return n.name }
func (n *processNode) Role() topologies.Role { return n.role }
func (n *processNode) Addr() string          { return net.JoinHostPort("127.0.0.1", strconv.Itoa(n.port)) }
func (n *processNode) confPath() string {
	return filepath.Join(n.dir, "server.conf")
}
func (n *processNode) logPath() string { return filepath.Join(n.dir, "server.log") }

// start launches the process and waits until it answers PING (and its clock is known).
func (n *processNode) start(ctx context.Context) error {
	if err := n.Start(ctx); err != nil {
		return err
	}
	return n.calibrate(ctx)
}

// calibrate fits a skewed node's model to the clock the server reads.
func (n *processNode) calibrate(ctx context.Context) error {
	if n.skew == nil {
		return nil
	}
	if err := n.skew.Calibrate(func() (time.Time, error) { return serverTime(ctx, n.Addr()) }); err != nil {
		_ = n.Kill()
		return fmt.Errorf("%s: %w", n.name, err)
	}
	return nil
}

// serverTime is the server's wall clock (TIME).
func serverTime(ctx context.Context, addr string) (time.Time, error) {
	c := redisadmin.AdminClient(addr)
	defer c.Close()
	return c.Time(ctx).Result()
}

// Restart kills the node if it runs and starts it again on the same port; it saves
// first for RestartWithSnapshot, and forgets its data for RestartEmpty.
func (n *processNode) Restart(ctx context.Context, mode topologies.RestartMode) error {
	var snapshot func(context.Context) error
	if mode == topologies.RestartWithSnapshot {
		snapshot = func(ctx context.Context) error { return redisadmin.AdminDo(ctx, n.Addr(), "SAVE") }
	}
	var forget func() error
	if mode == topologies.RestartEmpty {
		forget = n.forgetData
	}
	if err := n.Node.Restart(ctx, snapshot, forget); err != nil {
		return err
	}
	return n.calibrate(ctx)
}

func (n *processNode) forgetData() error {
	for _, f := range []string{"dump.rdb", "appendonlydir"} {
		if err := os.RemoveAll(filepath.Join(n.dir, f)); err != nil {
			return fmt.Errorf("%s: forget data: %w", n.name, err)
		}
	}
	return nil
}

// stop kills the process for good.
func (n *processNode) stop() {
	n.Close()
	if n.skew != nil {
		n.skew.Close()
	}
	topologies.ReleasePort(n.port)
}

// Clock is the node's model clock, or nil when it keeps true time.
func (n *processNode) Clock() *clocks.NodeClock {
	if n.skew == nil {
		return nil
	}
	return n.skew.Clock()
}
