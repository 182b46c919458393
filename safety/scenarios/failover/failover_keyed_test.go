package failover

import (
	"context"
	"errors"
	"testing"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
)

// On a Redis Cluster the key's master is killed right after the grant while its replica
// is paused: labtest asserts the claims (never lost under WAIT 1 with the one replica),
// and every judged trial proves its promotion, the read on the promoted replica, and
// records the failover time. The lag drawn stays under 20 ms, where no loss is claimed:
// whether the kill beats the replication stream is a rate (TestFailoverLoss says why).
// A node timeout of 2 s: at the default 400 ms, on a slower loaded machine, the cluster
// failed its own nodes (a master "has no running replica", then CLUSTERDOWN at the grant).
func TestFailoverLossOnACluster(t *testing.T) {
	t.Parallel()
	rep := labtest.RunScenario(t, "failover-loss", 2, lab.Params{"strategies": "cluster", "modes": "none,wait1", "delays": "0ms",
		"lag-max": "10ms", "wait-timeout": "2s", "down-after": "2s", "promotion-timeout": "1m"})
	want := map[string]bool{"cluster mode=none": true, "cluster mode=wait1": true}
	for _, s := range rep.Series {
		if !want[s.Name] {
			t.Errorf("unexpected series %q", s.Name)
		}
		delete(want, s.Name)
	}
	for name := range want {
		t.Errorf("no series %q", name)
	}
	env := labtest.TestEnv(t, 1, lab.Params{"strategies": "cluster", "cut": "link-kill"})
	s, _ := lab.Lookup("failover-loss")
	var perr *lab.ParamError
	if _, err := lab.Run(context.Background(), s, env); !errors.As(err, &perr) || perr.Name != "cut" {
		t.Errorf("cut=link-kill on a cluster: %v, want a cut param error", err)
	}
	if len(rep.Variants) != 2 {
		t.Fatalf("%d variants, want none and wait1 at one delay", len(rep.Variants))
	}
	for v, tr := range labtest.Judged(rep) {
		if !provesARead(tr) || tr.Inputs["promotion_ms"] <= 0 {
			t.Errorf("%s trial %d judged on %q with failover time %v: want the read proven and the time recorded", v.Name, tr.N, tr.Proof, tr.Inputs["promotion_ms"])
		}
	}
}
