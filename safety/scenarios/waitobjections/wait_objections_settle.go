package waitobjections

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// settledMaster waits until the sentinels name one master, none is failing over or
// flags it down, and that node answers as a master: the node B would lock on.
func settledMaster(ctx context.Context, st lab.Failover, topo topologies.Topology,
	timeout time.Duration) (topologies.Node, error) {
	deadline := time.Now().Add(timeout)
	last := "nothing read yet"
	for time.Now().Before(deadline) {
		if why := unsettledSentinels(ctx, topo); why != "" {
			last = why
		} else if node, err := st.Primary(ctx, topo); err != nil {
			last = err.Error()
		} else if info, err := redisadmin.Replication(ctx, node.Addr()); err != nil {
			last = fmt.Sprintf("%s: %v", node.Name(), err)
		} else if info.Role != "master" {
			last = fmt.Sprintf("sentinels name %s, which reports role %s", node.Name(), info.Role)
		} else {
			return node, nil
		}
		if err := lab.Sleep(ctx, 50*time.Millisecond); err != nil {
			return nil, err
		}
	}
	return nil, lab.NoFault("no settled master within %v: %s", timeout, last)
}

// unsettledSentinels says why the sentinels' view is not quiet, "" when it is.
func unsettledSentinels(ctx context.Context, topo topologies.Topology) string {
	qctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	master := ""
	for _, s := range topo.Sentinels() {
		v, err := redisadmin.ReadSentinelView(qctx, s.Addr(), topo.Spec().MasterName)
		if err != nil {
			return fmt.Sprintf("%s: %v", s.Name(), err)
		}
		if v.Master.FailoverState != "" || v.Master.Has("failover_in_progress") || v.Master.Has("s_down") ||
			v.Master.Has("o_down") {
			return fmt.Sprintf("sentinel %s: master %s flags %v, failover state %q", s.Name(), v.Master.Addr, v.Master.Flags,
				v.Master.FailoverState)
		}
		if master != "" && v.Master.Addr != master {
			return fmt.Sprintf("sentinels disagree: %s and %s", master, v.Master.Addr)
		}
		master = v.Master.Addr
	}
	return ""
}

// dbSize counts the keys on node.
func dbSize(ctx context.Context, node topologies.Node) (int64, error) {
	c := lab.PlainClient(node.Addr())
	defer c.Close()
	n, err := c.DBSize(ctx).Result()
	if err != nil {
		return 0, fmt.Errorf("DBSIZE on %s: %w", node.Name(), err)
	}
	return n, nil
}
