package consensus_test

import (
	"testing"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
)

// TestFenceRegressionOnACluster: on a Redis Cluster the fence is an INCR in the lock
// key's slot, replicated asynchronously. With the key master's replicas paused, its
// kill loses A's last fences (proved on the promoted replica before a trial is judged)
// and B is handed them again; with every write acknowledged first, nothing regresses
// (the claims assert both). The promotion is by the cluster bus, after
// cluster-node-timeout.
func TestFenceRegressionOnACluster(t *testing.T) {
	t.Parallel()
	rep := labtest.RunScenario(t, "fence-regression", 2, lab.Params{"strategies": "cluster"})
	for v, tr := range labtest.Judged(rep) {
		in := tr.Inputs
		lagged := v.Name == "cluster/lagging-followers"
		// The proof read the counter on the promoted replica: below A's last with
		// the lag, at it without.
		if lost := in["fence_on_promoted"] < in["last_fence_before_kill"]; lost != lagged {
			t.Errorf("%s trial %d: fence on the promoted replica %v, A's last %v", v.Name, tr.N, in["fence_on_promoted"], in["last_fence_before_kill"])
		}
	}
}
