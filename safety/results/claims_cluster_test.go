package results

import (
	"strings"
	"testing"
)

// The cluster's failover claims read the cluster's variants only: sentinel's loss
// shows nothing of a cluster's, and a cluster's loss nothing of sentinel's.
func TestTheClusterFailoverClaimsReadOnlyTheClustersVariants(t *testing.T) {
	loses := writeupClaim(t, "failover-loss", LostLocks, "Redis Cluster failover promotes a replica without the lock")
	sentinelLoses := writeupClaim(t, "failover-loss", LostLocks, "a Sentinel failover promotes a replica without the lock")
	sentinel := report("failover-loss", measured("none-delay-0ms", LostLocks, 20, 20))
	cluster := report("failover-loss", measured("cluster/none-delay-0ms", LostLocks, 20, 20))
	if got := loses.Judge(sentinel); got.Verdict != NotShown {
		t.Errorf("the cluster claim on sentinel's loss: %s (%+v)", got.Verdict, got.Checks)
	}
	if got := loses.Judge(cluster); got.Verdict != Supported {
		t.Errorf("the cluster claim on the cluster's loss: %s (%+v)", got.Verdict, got.Checks)
	}
	if got := sentinelLoses.Judge(cluster); got.Verdict != NotShown {
		t.Errorf("the sentinel claim on the cluster's loss: %s (%+v)", got.Verdict, got.Checks)
	}
	// No loss in any judged trial: not shown.
	if got := loses.Judge(report("failover-loss", measured("cluster/none-delay-0ms", LostLocks, 20, 0), measured("cluster/none-delay-50ms", LostLocks, 20, 0))); got.Verdict != NotShown {
		t.Errorf("no cluster failover lost a lock: %s", got.Verdict)
	}
}

// WAIT 1 on a cluster: Fisher's exact test at each delay against the cluster's own
// no-guard variants, Holm across delays, as sentinel's.
func TestClusterWaitLosesFewerIsTestedDelayByDelayAgainstTheCluster(t *testing.T) {
	fewer := writeupClaim(t, "failover-loss", LostLocks, "on a Redis Cluster, WAIT 1")
	shown := report("failover-loss",
		measured("cluster/none-delay-0ms", LostLocks, 20, 12), measured("cluster/none-delay-50ms", LostLocks, 20, 1),
		measured("cluster/wait1-delay-0ms", LostLocks, 20, 0), measured("cluster/wait1-delay-50ms", LostLocks, 20, 0))
	got := fewer.Judge(shown)
	if got.Verdict != Supported || !strings.Contains(got.Checks[0].Seen, "cluster/wait1-delay-0ms vs cluster/none-delay-0ms: 0/20 vs 12/20") ||
		!strings.Contains(got.Checks[0].Seen, "Holm over 2 conditions") {
		t.Errorf("12/20 against 0/20 at 0 ms: %s (%+v)", got.Verdict, got.Checks)
	}
	for name, reps := range map[string][]*Report{
		// 3/10 against 0/10 at each delay: p = 0.105 each, shown at neither (never pooled).
		"too few at each delay": report("failover-loss",
			measured("cluster/none-delay-0ms", LostLocks, 10, 3), measured("cluster/none-delay-50ms", LostLocks, 10, 3),
			measured("cluster/wait1-delay-0ms", LostLocks, 10, 0), measured("cluster/wait1-delay-50ms", LostLocks, 10, 0)),
		// Sentinel's no-guard loss is no baseline for the cluster's WAIT 1.
		"against sentinel's loss": report("failover-loss",
			measured("none-delay-0ms", LostLocks, 20, 20), measured("cluster/wait1-delay-0ms", LostLocks, 20, 0)),
	} {
		if got := fewer.Judge(reps); got.Verdict != NotShown {
			t.Errorf("%s: %s, want not shown (%+v)", name, got.Verdict, got.Checks)
		}
	}
	worse := report("failover-loss", measured("cluster/none-delay-0ms", LostLocks, 20, 3), measured("cluster/wait1-delay-0ms", LostLocks, 20, 15))
	if got := fewer.Judge(worse); got.Verdict != Contradicted {
		t.Errorf("WAIT 1 losing 15/20 against 3/20: %s", got.Verdict)
	}
}

// The cluster's split brain: a demonstration on the cluster-split-brain variants only,
// contradicted by one judged trial against it on either side.
func TestTheClusterSplitBrainClaimIsADemonstrationOnItsOwnScenario(t *testing.T) {
	split := writeupClaim(t, "cluster-split-brain", Violations, "Redis Cluster's master and a client on the minority")
	shown := report("cluster-split-brain",
		measured("cluster/none-node-timeout-500ms", Violations, 5, 5), measured("cluster/none-node-timeout-3s", Violations, 4, 4),
		measured("cluster/wait1-node-timeout-500ms", Violations, 5, 0))
	if got := split.Judge(shown); got.Verdict != Supported {
		t.Errorf("two holders in every no-guard trial, none with WAIT 1: %s (%+v)", got.Verdict, got.Checks)
	}
	for name, c := range map[string]struct {
		reps []*Report
		want Verdict
	}{
		"a no-guard trial without two holders": {report("cluster-split-brain",
			measured("cluster/none-node-timeout-500ms", Violations, 5, 4), measured("cluster/wait1-node-timeout-500ms", Violations, 5, 0)), Contradicted},
		"two holders under WAIT 1": {report("cluster-split-brain",
			measured("cluster/none-node-timeout-500ms", Violations, 5, 5), measured("cluster/wait1-node-timeout-500ms", Violations, 5, 1)), Contradicted},
		"sentinel's split brain": {report("sentinel-split-brain", measured("min-replicas-off", Violations, 5, 5)), NotShown},
	} {
		if got := split.Judge(c.reps); got.Verdict != c.want {
			t.Errorf("%s: %s, want %s (%+v)", name, got.Verdict, c.want, got.Checks)
		}
	}
}

// The cluster's fence regression reads the cluster's variants only: sentinel's
// regression shows nothing of a cluster's.
func TestTheClusterFenceClaimReadsOnlyTheClustersVariants(t *testing.T) {
	regresses := writeupClaim(t, "fence-regression", ReissuedTokens, "on a Redis Cluster the INCR fence")
	cluster := report("fence-regression", measured("cluster/lagging-followers", ReissuedTokens, 5, 5), measured("cluster/replicated", ReissuedTokens, 5, 0))
	if got := regresses.Judge(cluster); got.Verdict != Supported {
		t.Errorf("reissued in the lagging trials, none in the control: %s (%+v)", got.Verdict, got.Checks)
	}
	for name, c := range map[string]struct {
		reps []*Report
		want Verdict
	}{
		"sentinel's regression":     {report("fence-regression", measured("sentinel/lagging-followers", ReissuedTokens, 5, 5), measured("sentinel/replicated", ReissuedTokens, 5, 0)), NotShown},
		"no lagging trial reissued": {report("fence-regression", measured("cluster/lagging-followers", ReissuedTokens, 5, 0), measured("cluster/replicated", ReissuedTokens, 5, 0)), NotShown},
		"the control reissued":      {report("fence-regression", measured("cluster/lagging-followers", ReissuedTokens, 5, 5), measured("cluster/replicated", ReissuedTokens, 5, 1)), Contradicted},
	} {
		if got := regresses.Judge(c.reps); got.Verdict != c.want {
			t.Errorf("%s: %s, want %s (%+v)", name, got.Verdict, c.want, got.Checks)
		}
	}
}
