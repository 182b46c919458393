package partition

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

type dialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// reachProbe bounds the connection attempts: a cut drops the SYN, so it never answers,
// while a node beside the client answers well within it (at 300 ms, load 50, a
// container's node did not, and the control trial saw a cut nobody asked for).
const reachProbe = 2 * time.Second

// proveReach dials every node through who's dialer, all at once: those in want must
// answer, the others must stay silent (a timeout, not a refusal). It proves the client's
// cut.
func proveReach(ctx context.Context, t *lab.Trial, who string, dial dialFunc, nodes []topologies.Node,
	want map[int]bool) error {
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	for i, n := range nodes {
		wg.Go(func() {
			dctx, cancel := context.WithTimeout(ctx, reachProbe)
			defer cancel()
			c, err := dial(dctx, "tcp", n.Addr())
			if err == nil {
				c.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	var reached, dropped []int
	as := true
	for i, err := range errs {
		switch {
		case err == nil:
			reached = append(reached, i)
		case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded):
			dropped = append(dropped, i)
		default:
			return lab.Failed("observe", fmt.Errorf("%s dialing %s: %w", who, nodes[i].Name(), err))
		}
		as = as && (err == nil) == want[i]
	}
	if !as {
		return lab.NoFault("%s reached nodes %v, its connections to %v unanswered: not the cut asked for", who, reached,
			dropped)
	}
	t.Prove("%s reached nodes %v; its connections to %v went unanswered for %v", who, reached, dropped, reachProbe)
	return nil
}

// holders reads key on every node from the host: the indexes of the nodes holding token.
func holders(ctx context.Context, nodes []topologies.Node, key, token string) ([]int, error) {
	var on []int
	for i, n := range nodes {
		k, err := redisadmin.ReadKey(ctx, n.Addr(), key)
		if err != nil {
			return nil, fmt.Errorf("read %s on %s: %w", key, n.Name(), err)
		}
		if k.Present && k.Value == token {
			on = append(on, i)
		}
	}
	return on, nil
}
