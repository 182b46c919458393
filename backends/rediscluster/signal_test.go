package rediscluster_test

import (
	"context"
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/rediscluster"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// TestHelperHoldCluster is the child of the signal test: it starts a cluster, pauses
// one node, prints its dir and every node's pid, and waits to be signalled.
func TestHelperHoldCluster(t *testing.T) {
	testenv.Hold(t, "hold-cluster", func() ([]string, error) {
		topo, err := rediscluster.Process{}.Start(context.Background(), backend.Spec{Kind: rediscluster.Kind})
		if err != nil {
			return nil, err
		}
		c := topo.(*rediscluster.Cluster)
		if err := c.Replicas()[0].Pause(); err != nil {
			return nil, err
		}
		var pids []int
		for _, n := range c.Nodes() {
			pids = append(pids, n.(interface{ Pid() int }).Pid())
		}
		return []string{c.Dir(), testenv.JoinPids(pids)}, nil
	})
}

// An interrupted, terminated or killed owner leaves no node running (a paused one
// included) and, once the next start sweeps, no folder.
func TestSignalOrKillOfTheOwnerStopsEveryNode(t *testing.T) {
	testenv.RequireRedis(t)
	testenv.OwnerDies(t, "TestHelperHoldCluster", "LOCKBENCH_HELPER=hold-cluster", 6, "node", func(t *testing.T) {
		startCluster(t, backend.Spec{}).Close()
	})
}
