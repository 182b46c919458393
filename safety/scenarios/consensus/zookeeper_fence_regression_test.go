package consensus_test

import (
	"testing"

	"github.com/lockbench/lockbench/backends/zookeeper"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// TestFenceRegressionZooKeeperEmptyRestart: a follower of zookeeper-3 restarted with an
// empty disk rejoins and syncs from the leader (proved before a trial is judged), so
// after the leader's kill the czxid fence still grows: no token reissued, no honest
// write refused, no fenced stores diverged (the claims assert all three).
func TestFenceRegressionZooKeeperEmptyRestart(t *testing.T) {
	t.Parallel()
	testenv.RequireServer(t, zookeeper.Kind)
	rep := labtest.RunScenario(t, "fence-regression", 2, lab.Params{"strategies": "zookeeper-3"})
	for _, v := range rep.Variants {
		if v.Name != "zookeeper-3/follower-restarted-empty" {
			continue
		}
		if v.Tally.Judged == 0 {
			t.Fatalf("%s: nothing judged", v.Name)
		}
		for _, tr := range v.Trials {
			if tr.Outcome != results.Judged { // an errored trial measured nothing to hold
				continue
			}
			in := tr.Inputs
			// The measured direction: the czxid fence kept growing across the kill.
			if in["fence_b_last"] <= in["fence_a_last"] {
				t.Errorf("trial %d: B's highest fence %v is not above A's last %v", tr.N, in["fence_b_last"], in["fence_a_last"])
			}
			// The empty server learnt the leader's history: it reached the leader's zxid.
			if in["zxid_restarted_after_sync"] < in["zxid_leader_before_restart"] {
				t.Errorf("trial %d: restarted server at zxid %v, the leader was at %v", tr.N, in["zxid_restarted_after_sync"], in["zxid_leader_before_restart"])
			}
		}
		return
	}
	t.Fatal("no follower-restarted-empty variant in the report")
}
