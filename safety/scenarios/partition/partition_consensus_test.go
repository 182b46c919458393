package partition

import (
	"fmt"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backends/etcd"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// A consensus leader cut off from its followers is no second master: labtest.RunIn asserts the
// claims (no two holders, no grant by the isolated leader, B granted on the majority in
// every judged trial). Here: each judged trial proved the majority's election and B's
// grant, and B got in only after A's validity ended. A's lease is 20 s, which B waits
// out: at the default 5 s, in a fresh-clone CI at load 40, it ended before the isolated
// leader could be asked for a grant.
func TestConsensusPartition(t *testing.T) {
	t.Parallel()
	p, err := topologies.ProviderFor("container", etcd.Kind)
	if err != nil || p.Name() != "container" {
		testenv.MissingTool(t, fmt.Errorf("etcd is not served in containers here (%v): nothing to partition", err))
	}
	rep := labtest.RunIn(t, labtest.ContainerEnv(t, 1, lab.Params{"ttl": "20s"}), "consensus-partition",
		15*time.Minute)
	for v, tr := range labtest.Judged(rep) {
		for _, want := range []string{"elected leader", "was cut from both followers", "B granted on the majority", "granted 0 of"} {
			if !hasProof(tr, want) {
				t.Errorf("%s trial %d judged on %q: want a proof with %q", v.Name, tr.N, tr.Proof, want)
			}
		}
	}
}
