package partition

import (
	"context"
	"fmt"
	"net"
	"os"
	"runtime"

	"golang.org/x/sys/unix"

	"github.com/lockbench/lockbench/topologies"
)

// netnsNode is a node whose network namespace a client can join (a container's).
type netnsNode interface{ NetNS() (string, error) }

// dialerInside opens every connection from inside node's network namespace: the client
// is placed beside the node, so the partitions cut around the node cut the client too.
func dialerInside(node topologies.Node) (func(ctx context.Context, network, addr string) (net.Conn, error), error) {
	nn, ok := node.(netnsNode)
	if !ok {
		return nil, fmt.Errorf(
			"node %s has no network namespace of its own: a client cannot be placed beside it (use --provider container)",
			node.Name())
	}
	path, err := nn.NetNS()
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		type result struct {
			c   net.Conn
			err error
		}
		done := make(chan result, 1)
		go func() {
			// The thread never leaves the namespace: it stays locked and dies with this goroutine.
			runtime.LockOSThread()
			f, err := os.Open(path)
			if err != nil {
				done <- result{nil, fmt.Errorf("open %s: %w", path, err)}
				return
			}
			defer f.Close()
			if err := unix.Setns(int(f.Fd()), unix.CLONE_NEWNET); err != nil {
				done <- result{nil, fmt.Errorf("join the network namespace of %s: %w", node.Name(), err)}
				return
			}
			var d net.Dialer
			c, err := d.DialContext(ctx, network, addr)
			done <- result{c, err}
		}()
		r := <-done
		return r.c, r.err
	}, nil
}
