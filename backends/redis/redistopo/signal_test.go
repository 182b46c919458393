package redistopo_test

import (
	"context"
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/redis/redistopo"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// TestHelperHoldTopology is not a test: run as a child by the test below, it starts a
// sentinel topology, prints its dir and server pids, and waits to be signalled.
func TestHelperHoldTopology(t *testing.T) {
	testenv.Hold(t, "hold", func() ([]string, error) {
		topo, err := redistopo.Process{}.Start(context.Background(), backend.Spec{Kind: topologies.Sentinel})
		if err != nil {
			return nil, err
		}
		var pids []int
		for _, n := range topo.Nodes() {
			pids = append(pids, pidOf(t, n))
		}
		return []string{topo.(interface{ Dir() string }).Dir(), testenv.JoinPids(pids)}, nil
	})
}

// A signalled or killed owner takes every server along, and its dir: removed by the
// handler, or swept by the next Start after a SIGKILL.
func TestSignalOrKillOfTheOwnerStopsEveryServer(t *testing.T) {
	testenv.RequireRedis(t)
	testenv.OwnerDies(t, "TestHelperHoldTopology", "LOCKBENCH_HELPER=hold", 6, "server", func(t *testing.T) {
		testenv.Start(t, backend.Spec{Kind: topologies.Single}).Close()
	})
}
