package partition

import (
	"testing"
	"time"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
)

// labtest.RunIn asserts the claims: a client cut from 2 of 5 still locks (judged means granted)
// and keeps the lock from B; two majorities sharing a node that restarts empty give two
// holders in every judged trial, none when the restart waits out the TTL. Here: every
// judged trial proved its clients' cuts by dialing from their namespaces, B's grant was
// read on exactly 2,3,4, and the cut cost A validity against the same client uncut. A
// 60 s TTL: at the default 8 s, with the suite compiling beside it, one container's
// empty restart took 9.6 s and A's validity ended before B was done; at 20 s, in a
// fresh-clone CI, it took 30.7 s (the whole trial, 8.2 s quiet). The delayed restart
// waits the TTL out.
func TestRedlockPartition(t *testing.T) {
	t.Parallel()
	rep := labtest.RunIn(t, labtest.ContainerEnv(t, 1, lab.Params{"ttl": "60s"}), "redlock-partition", 15*time.Minute)
	validity := map[string]float64{}
	for v, tr := range labtest.Judged(rep) {
		wants := []string{"A (beside node 0) reached nodes", "A granted on nodes"}
		switch v.Name {
		case "minority-cut":
			wants = append(wants, "unanswered for", "A granted on nodes [0 1 2]")
		case "majorities-restart-empty", "majorities-delayed-restart":
			wants = append(wants, "B (beside node 4) reached nodes [2 3 4]", "B granted on nodes [2 3 4]", "restarted")
		}
		for _, w := range wants {
			if !hasProof(tr, w) {
				t.Errorf("%s trial %d judged on %q: want a proof with %q", v.Name, tr.N, tr.Proof, w)
			}
		}
		validity[v.Name] = tr.Inputs["validity_ms"]
	}
	if !(validity["minority-cut"] < validity["no-cut"]) {
		t.Errorf("validity %v: want the cut client's below the uncut one's (it waits out the cut nodes)", validity)
	}
}
