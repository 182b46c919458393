package adr

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/safety/results"
)

// A rate already seen above 0 is not planned (no trial count brings it within the
// budget), and a demonstration run often enough is listed as had, not run again.
func TestPlanSkipsSeenRatesAndDemonstrationsRun(t *testing.T) {
	w, err := LoadWorkload("../docs/adr-workload-correctness.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var safety []*results.Report
	safety = append(safety, handReport("fence-regression", handVariant("sentinel/lagging-followers", results.ReissuedTokens, 10, 1))...)
	safety = append(safety, handReport("lost-updates", handVariant("pause/cas-version", results.LostUpdates, 3, 0),
		handVariant("pause/unique-key", results.LostUpdates, 3, 0), handVariant("pause/atomic", results.LostUpdates, 3, 0))...)
	text := MakePlan(w, "w.yaml", &Inputs{Safety: safety}, "m").Text()
	if strings.Contains(text, "--scenario fence-regression") || !strings.Contains(text, "sentinel + fence under failover: 1 of 10") {
		t.Errorf("a seen rate is planned:\n%s", text)
	}
	if strings.Contains(text, "--scenario lost-updates") || !strings.Contains(text, "* lost-updates: 3 judged trials a variant, of 3 needed") {
		t.Errorf("demonstrations run 3 times are planned again:\n%s", text)
	}
	// Without them, both are planned: the checks above can fail.
	bare := MakePlan(w, "w.yaml", &Inputs{}, "m").Text()
	if !strings.Contains(bare, "--scenario fence-regression --trials 2455") || !strings.Contains(bare, "--scenario lost-updates --trials 3") {
		t.Errorf("the bare plan lacks them:\n%s", bare)
	}
}

// The estimate of a TTL-long trial keeps the measured fixed part and scales the wait:
// pause-past-ttl measured 0.94 s with a 0.9 s pause (3 x 300 ms), so at a 30 s TTL and
// a 1.5 x pause a trial is 0.04 + 45 = 45.04 s.
func TestTrialTimeScalesTheWaitOnly(t *testing.T) {
	got := measuredTrials["pause-past-ttl"].at(30e9, 1.5)
	if got.Seconds() < 45.039 || got.Seconds() > 45.041 {
		t.Fatalf("got %v", got)
	}
}

// Results given with their own timing are used before the reference, and named.
func TestTrialTimeFromTheGivenResults(t *testing.T) {
	rep := handReport("redlock-restart", handVariant("redlock/restart-empty", results.Violations, 4, 4))[0]
	rep.Seconds = 20
	tt, ok := trialTimeOf("redlock-restart", &Inputs{Safety: []*results.Report{rep}, SafetyFrom: []string{"dir/x"}})
	if !ok || tt.Seconds != 5 || !strings.HasPrefix(tt.From, "dir/x: 4 trials in 20.0 s") {
		t.Fatalf("%+v", tt)
	}
}
