package hostcrash_test

import (
	"context"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/embedded"

	_ "github.com/lockbench/lockbench/safety/scenarios/hostcrash"
)

// labtest.RunScenario holds the claims: under appendfsync no every judged trial lost
// A's lock and let B in beside A, under always none did. Here: every judged trial
// proved the restart and what the disk dropped, the AOF's unsynced bytes under no.
func TestHostCrashLosesTheLockOnlyWhereTheAOFWasNotFsynced(t *testing.T) {
	t.Parallel()
	rep := labtest.RunScenario(t, "host-crash", 3, lab.Params{"fsync": "no,always"})
	if len(rep.Variants) != 2 {
		t.Fatalf("%d variants, want appendfsync no and always", len(rep.Variants))
	}
	for _, v := range rep.Variants {
		for _, tr := range v.Trials {
			if tr.Outcome != results.Judged {
				continue
			}
			proof := strings.Join(tr.Proof, "; ")
			if !strings.Contains(proof, "host crashed and it restarted") {
				t.Errorf("%s trial %d judged on %q: want the restart proved", v.Name, tr.N, proof)
			}
			if v.Params["appendfsync"] == "no" && (tr.Inputs["bytes_dropped"] <= 0 || !strings.Contains(proof, "appendonlydir/")) {
				t.Errorf("%s trial %d: %q, %v bytes dropped: want the AOF's unsynced bytes dropped", v.Name, tr.N, proof,
					tr.Inputs["bytes_dropped"])
			}
		}
	}
}

// A provider whose nodes keep an ordinary disk cannot crash a host: the run stops
// naming the provider to use, rather than pass a restart from disk off as a crash.
func TestHostCrashRefusesAProviderWithoutAForgetfulDisk(t *testing.T) {
	t.Parallel()
	env := labtest.TestEnv(t, 1, lab.Params{"fsync": "no"})
	env.Start = func(ctx context.Context, spec backend.Spec) (topologies.Topology, error) {
		topo, err := embedded.Provider{}.Start(ctx, spec)
		if err == nil {
			t.Cleanup(func() { topo.Close() })
		}
		return topo, err
	}
	s, err := lab.Lookup("host-crash")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lab.Run(context.Background(), s, env); err == nil || !strings.Contains(err.Error(), "--provider process") {
		t.Fatalf("host-crash on miniredis: %v, want a refusal naming --provider process", err)
	}
}
