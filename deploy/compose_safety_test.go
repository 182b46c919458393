package deploy_test

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// Three safety workers in Compose, each with its own redis-server processes in its
// container, merged: the merge replays the one run with the same seed on this machine
// trial for trial (unsafe-release forces its interleavings, so outcomes and counts
// are the same in any run), and each worker ran only its share.
func TestComposeSafetyWorkersMergeEqualsOneRun(t *testing.T) {
	t.Parallel()
	testenv.RequireRedis(t) // the worker image carries the host's redis-server
	const scenario, trials, seed = "unsafe-release", 6, 11
	bin := buildForCompose(t)
	out := filepath.Join(t.TempDir(), "out")
	runCompose(t, "compose/safety.sh", out, "LOCKBENCH="+bin, "LOCKBENCH_SCENARIO="+scenario,
		fmt.Sprintf("LOCKBENCH_TRIALS=%d", trials), fmt.Sprintf("LOCKBENCH_SEED=%d", seed))

	one := filepath.Join(t.TempDir(), "one")
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "safety", "--provider", "process", "--scenario", scenario,
		"--trials", fmt.Sprint(trials), "--seed", fmt.Sprint(seed), "--out", one)
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the one run: %v\n%s", err, lastLines(stderr.String(), 20))
	}
	whole, err := results.Read(one)
	if err != nil {
		t.Fatal(err)
	}
	merged, err := results.Read(filepath.Join(out, "merged"))
	if err != nil {
		t.Fatal(err)
	}
	if len(merged.MergedFrom) != 3 {
		t.Errorf("merged from %q, want the three workers' folders", merged.MergedFrom)
	}
	for i := range 3 {
		share, err := results.Read(filepath.Join(out, fmt.Sprintf("safety-%d", i)))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range share.Reports[0].Variants {
			for _, tr := range v.Trials {
				if tr.N%3 != i {
					t.Errorf("worker %d/3 ran %s trial %d", i, v.Name, tr.N)
				}
			}
		}
	}
	broke := 0
	for _, v := range whole.Reports[0].Variants {
		if len(v.Trials) != trials {
			t.Errorf("the one run's %s has %d trials, want %d", v.Name, len(v.Trials), trials)
		}
		broke += v.Tally.Broke[results.Violations]
	}
	if broke == 0 {
		t.Fatalf("no trial broke in the one run: the comparison saw no violation to carry over")
	}
	for _, d := range results.ReplayDifferences(whole, merged) {
		t.Errorf("one run against the Compose merge: %s", d)
	}
}
