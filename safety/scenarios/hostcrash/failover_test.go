package hostcrash

import (
	"context"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// Master and replica lose power together after the replica acknowledged A's grant:
// labtest holds the claims (a replica that never fsyncs loses the lock in every judged
// trial; one under always, WAIT's or WAITAOF's, in none). Each judged trial proved the
// replica's AOF steady before the grant, its own crash and restart, and its promotion;
// each lost lock's crash dropped the replica's unsynced AOF bytes.
func TestMasterAndReplicaCrashKeepOnlyWhatTheReplicaFsynced(t *testing.T) {
	t.Parallel()
	testenv.RequireValkey(t)
	rep := labtest.RunScenario(t, "host-crash-failover", 2, lab.Params{"fsync": "no,always"})
	if len(rep.Variants) != 3 {
		t.Fatalf("%d variants, want wait under no and always, and waitaof-replica under its always", len(rep.Variants))
	}
	for v, tr := range labtest.Judged(rep) {
		proof := strings.Join(tr.Proof, "; ")
		for _, want := range []string{"AOF steady before A's grant", "replica-0's host crashed and it restarted",
			"replica-0 promoted"} {
			if !strings.Contains(proof, want) {
				t.Errorf("%s trial %d judged on %q: want %q", v.Name, tr.N, proof, want)
			}
		}
		if tr.Counts[results.LostLocks] > 0 && !strings.Contains(proof, "appendonlydir/") {
			t.Errorf("%s trial %d lost the lock with %q: want the replica's AOF bytes dropped", v.Name, tr.N, proof)
		}
	}
}

// A WAITAOF strategy shaped for its own policy refuses a run that leaves that policy out.
func TestHostCrashFailoverRunsWAITAOFUnderItsOwnPolicyOnly(t *testing.T) {
	t.Parallel()
	env := labtest.TestEnv(t, 1, lab.Params{"strategies": "waitaof-replica", "fsync": "no"})
	s, err := lab.Lookup("host-crash-failover")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lab.Run(context.Background(), s, env); err == nil || !strings.Contains(err.Error(), "own appendfsync always") {
		t.Fatalf("waitaof-replica asked to run under no: %v, want a refusal naming its own policy", err)
	}
}
