package redistopo

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/clocks/faketime"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/forgetful"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// processNode is one redis-server (or sentinel) process, supervised, whose clock may be
// a fake one.
type processNode struct {
	*ServerNode
	skew *faketime.Node  // drives this node's libfaketime; nil keeps true time
	disk *forgetful.Disk // the disk its data sits on when it forgets; nil keeps an ordinary one
}

// newProcessNode readies a node that runs bin on its config in dir, with env added
// (a fake-time preload, say); nothing runs until start.
func newProcessNode(name string, role topologies.Role, bin, dir string, port int, env []string,
	skew *faketime.Node) *processNode {
	var args []string
	if role == topologies.RoleSentinel {
		args = []string{"--sentinel"}
	}
	environ := func() []string {
		if skew == nil {
			return env
		}
		return append(append([]string{}, env...), skew.Env()...)
	}
	return &processNode{ServerNode: NewServerNode(name, role, bin, dir, port, args, environ), skew: skew}
}

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
	if err := n.skew.Calibrate(func() (time.Time, error) { return redisadmin.ServerTime(ctx, n.Addr()) }); err != nil {
		_ = n.Kill()
		return fmt.Errorf("%s: %w", n.name, err)
	}
	return nil
}

// Restart restarts the server as ServerNode does, or after a host crash of its
// forgetful disk, then fits a skewed clock again.
func (n *processNode) Restart(ctx context.Context, mode topologies.RestartMode) error {
	var err error
	if mode == topologies.RestartAfterHostCrash && n.disk != nil {
		err = n.Node.Restart(ctx, nil, n.disk.Crash) // the process is killed before its disk forgets
	} else {
		err = n.ServerNode.Restart(ctx, mode)
	}
	if err != nil {
		return err
	}
	return n.calibrate(ctx)
}

// LastHostCrash is what the last host crash dropped; false before the first, or on a
// node with an ordinary disk.
func (n *processNode) LastHostCrash() (topologies.HostCrash, bool) {
	if n.disk == nil {
		return topologies.HostCrash{}, false
	}
	return n.disk.Last()
}

// WriteBack makes all the node wrote durable on its forgetful disk; none on an ordinary one.
func (n *processNode) WriteBack() error { return n.disk.WriteBack() }

// stop kills the process for good.
func (n *processNode) stop() {
	n.Close()
	if n.skew != nil {
		n.skew.Close()
	}
	_ = n.disk.Unmount()
	topologies.ReleasePort(n.port)
}

// Clock is the node's model clock, or nil when it keeps true time.
func (n *processNode) Clock() *clocks.NodeClock {
	if n.skew == nil {
		return nil
	}
	return n.skew.Clock()
}
