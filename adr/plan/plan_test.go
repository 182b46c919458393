package plan

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/adr"
	"github.com/lockbench/lockbench/adr/adrtest"
	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/safety/results"
)

// A rate already seen above 0 is not planned (no trial count brings it within the
// budget), and a demonstration run often enough is listed as had, not run again.
func TestPlanSkipsSeenRatesAndDemonstrationsRun(t *testing.T) {
	w := lockable(t, "../../docs/adr-workload-correctness.yaml")
	var safety []*results.Report
	safety = append(safety, adrtest.HandReport("fence-regression", adrtest.HandVariant("sentinel/lagging-followers", results.ReissuedTokens, 10, 1))...)
	safety = append(safety, adrtest.HandReport("lost-updates", adrtest.HandVariant("pause/cas-version", results.LostUpdates, 3, 0),
		adrtest.HandVariant("pause/unique-key", results.LostUpdates, 3, 0), adrtest.HandVariant("pause/atomic", results.LostUpdates, 3, 0))...)
	text := MakePlan(w, "w.yaml", &adr.Inputs{Safety: safety}, "m").Text()
	if strings.Contains(text, "--scenario fence-regression") || !strings.Contains(text, "sentinel + fence under failover: 1 of 10") {
		t.Errorf("a seen rate is planned:\n%s", text)
	}
	if strings.Contains(text, "--scenario lost-updates") || !strings.Contains(text, "* lost-updates: 3 judged trials a variant, of 3 needed") {
		t.Errorf("demonstrations run 3 times are planned again:\n%s", text)
	}
	// Without them, both are planned: the checks above can fail.
	bare := MakePlan(w, "w.yaml", &adr.Inputs{}, "m").Text()
	// fence-regression's count is not sized (no model carries its follower lag to the
	// workload's): 3 trials show the lab's count; no number of them bounds the year.
	if !strings.Contains(bare, "--scenario fence-regression --trials 3") || !strings.Contains(bare, "sentinel + fence under failover (not sized: the lab's count only)") ||
		!strings.Contains(bare, "--scenario lost-updates --trials 3") {
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
	// pause-past-ttl's mean wait: four variants pause, watchdog-slow-work works 3 x TTL;
	// at the reference's factor 3 that is the 3 x TTL measured.
	if pauseWait(3) != 3 || pauseWait(1.5) != 1.8 {
		t.Fatalf("pauseWait(3) = %v, pauseWait(1.5) = %v", pauseWait(3), pauseWait(1.5))
	}
}

// Results given with their own timing are used before the reference, and named.
func TestTrialTimeFromTheGivenResults(t *testing.T) {
	rep := adrtest.HandReport("redlock-restart", adrtest.HandVariant("redlock/restart-empty", results.Violations, 4, 4))[0]
	rep.Seconds = 20
	tt, ok := trialTimeOf("redlock-restart", &adr.Inputs{Safety: []*results.Report{rep}, SafetyFrom: []string{"dir/x"}})
	if !ok || tt.Seconds != 5 || !strings.HasPrefix(tt.From, "dir/x: 4 trials in 20.0 s") {
		t.Fatalf("%+v", tt)
	}
	// A pause-past-ttl run at its own TTL and factor: 2 s a trial at 1 s, factor 1.5
	// (1.8 s of waiting), so 0.2 s fixed; at 30 s and 1.5: 54.2 s.
	pause := adrtest.HandReport("pause-past-ttl", adrtest.HandVariant("single/no-watchdog", results.Violations, 5, 5))[0]
	pause.Seconds, pause.Params = 10, map[string]string{"ttl": "1s", "pause-factor": "1.5"}
	pt, ok := trialTimeOf("pause-past-ttl", &adr.Inputs{Safety: []*results.Report{pause}})
	if got := pt.at(30e9, pauseWait(1.5)).Seconds(); !ok || got < 54.199 || got > 54.201 {
		t.Fatalf("%+v: %v", pt, got)
	}
}

// A failover the cluster's options need is planned on the cluster: failover-loss
// runs sentinel unless told, so the step names both, and counts the cluster's
// variants (none and wait1 at five delays) beside sentinel's 25 (four guards and the
// planned failover at five delays); without them it stays sentinel's.
func TestPlannedFailoverTrialsRunOnTheClusterItsOptionsNeed(t *testing.T) {
	w := lockable(t, "../testdata/efficiency.yaml")
	p := &Plan{}
	p.trialStep(w, &adr.Inputs{}, "m", "failover-loss", &need{trials: 2, reasons: []string{"cluster under failover"}, strategies: []string{"sentinel", "cluster-wait", "cluster"}})
	p.trialStep(w, &adr.Inputs{}, "n", "failover-loss", &need{trials: 2, reasons: []string{"sentinel under failover"}, strategies: []string{"sentinel", "wait"}})
	if len(p.Steps) != 2 {
		t.Fatalf("steps: %+v", p.Steps)
	}
	withCluster, without := p.Steps[0], p.Steps[1]
	if !strings.Contains(withCluster.Command, "--param modes=none,wait1,wait2,min-replicas,planned --param strategies=sentinel,cluster") ||
		!strings.Contains(withCluster.What, "(35 variants)") {
		t.Errorf("the cluster's step: %s / %s", withCluster.What, withCluster.Command)
	}
	if strings.Contains(without.Command, "strategies=") || !strings.Contains(without.What, "(25 variants)") {
		t.Errorf("sentinel's step: %s / %s", without.What, without.Command)
	}
}

// pause-past-ttl runs on the strategies whose variants lack judged trials, not on every
// option again: a kept folder where one strategy's trials failed asks for that one.
func TestPlanRunsAScenarioOnlyOnTheStrategiesThatLackIt(t *testing.T) {
	w := lockable(t, "../../docs/adr-workload.yaml")
	var vs []*results.Variant
	for _, s := range planStrategies(w) {
		judged := 3
		if s == "cluster-wait" {
			judged = 0
		}
		for _, name := range []string{"/no-watchdog", "/watchdog"} {
			v := adrtest.HandVariant(s+name, results.Violations, judged, judged)
			v.Params = map[string]string{"strategy": s, "ttl": "30s"}
			vs = append(vs, v)
		}
	}
	text := MakePlan(w, "w.yaml", &adr.Inputs{Safety: adrtest.HandReport("pause-past-ttl", vs...)}, "m").Text()
	if !strings.Contains(text, "--scenario pause-past-ttl --trials 3 --seed 1 --param strategies=cluster-wait --param ttl=2s --param pause-factor=1.5") {
		t.Errorf("pause-past-ttl is not planned on cluster-wait alone:\n%s", text)
	}
}

// lockable loads a shipped workload with its latency budget at 200 ms. At their own
// budgets no lock can meet either (their queueing floors' p99 are 168 ms and 25 ms), so
// the plan runs no lock's step; these tests are about those steps.
func lockable(t *testing.T, path string) *workload.Workload {
	t.Helper()
	w, err := workload.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	w.SLO.Budget, w.Budget.Max = 200*time.Millisecond, "200ms"
	if why := adr.LocksBeyondFloor(w); why != "" {
		t.Fatalf("%s at 200 ms: %s", path, why)
	}
	return w
}

// Where the queueing floor rules every lock out, the plan runs no lock's step: the
// efficiency example runs nothing, the correctness one only the ways with no lock, and
// each says why it leaves the rest out.
func TestPlanRunsNoLockStepWhenTheFloorRulesEveryLockOut(t *testing.T) {
	for _, c := range []struct {
		path  string
		steps []string
	}{
		{"../../docs/adr-workload.yaml", nil},
		{"../../docs/adr-workload-correctness.yaml", []string{"m/bench-update", "m/lost-updates"}},
	} {
		w, err := workload.Load(c.path)
		if err != nil {
			t.Fatal(err)
		}
		p := MakePlan(w, c.path, &adr.Inputs{}, "m")
		var outs []string
		for _, s := range p.Steps {
			outs = append(outs, s.Out)
		}
		if !slices.Equal(outs, c.steps) {
			t.Errorf("%s plans %v, want %v", c.path, outs, c.steps)
		}
		if text := p.Text(); !strings.Contains(text, "Not run, as no result of it could change the decision:") ||
			!strings.Contains(text, "every lock's cost and faults: no lock can meet p99 within 10.0ms") {
			t.Errorf("%s: the plan does not say why it runs no lock:\n%s", c.path, text)
		}
	}
}

// A workload that gives its own replication lag needs none of the lab's: the plan runs
// no replication-lag step and lists the lag as had.
func TestPlanReadsTheTeamsLagInsteadOfMeasuringOne(t *testing.T) {
	w := lockable(t, "../../docs/adr-workload.yaml")
	if !strings.Contains(MakePlan(w, "w.yaml", &adr.Inputs{}, "m").Text(), "--scenario replication-lag") {
		t.Fatal("without the team's lag the plan measures the lab's")
	}
	w.ReplicationLag = &workload.Lag{P50: "1ms", P99: "20ms", Source: "INFO replication", P50D: time.Millisecond,
		P99D: 20 * time.Millisecond}
	text := MakePlan(w, "w.yaml", &adr.Inputs{}, "m").Text()
	if strings.Contains(text, "--scenario replication-lag") || !strings.Contains(text, "the team's replication lag") {
		t.Errorf("the team's lag given, the plan:\n%s", text)
	}
}

// The plan measures the workload's candidates, not the quick matrix.
func TestPlanMeasuresTheWorkloadsCandidates(t *testing.T) {
	w := lockable(t, "../../docs/adr-workload.yaml")
	w.Candidates = []string{"rueidislock", "bsm-redislock"}
	text := MakePlan(w, "w.yaml", &adr.Inputs{}, "m").Text()
	if !strings.Contains(text, "lockbench run --strategies bsm-redislock,rueidislock ") ||
		!strings.Contains(text, "--param strategies=bsm-redislock,rueidislock") {
		t.Errorf("the plan does not measure the candidates alone:\n%s", text)
	}
	// Neither fails over nor runs on Redlock's nodes: no replica lag, no Redlock jump.
	if strings.Contains(text, "--scenario replication-lag") || strings.Contains(text, "--scenario redlock-clock-jump") {
		t.Errorf("the plan measures what no candidate needs:\n%s", text)
	}
}

// A workload that counts a master's stall has failover-loss run its zombie mode too,
// timed as a zombie's trials take; one that does not name it runs the other modes only.
func TestPlanRunsTheZombieWhereAMastersStallCounts(t *testing.T) {
	w := lockable(t, "../../docs/adr-workload.yaml")
	w.Faults.MasterStall = nil
	without := benchOf(MakePlan(w, "w.yaml", &adr.Inputs{}, "m"), "failover-loss")
	if without == nil || strings.Contains(without.Command, "zombie") {
		t.Fatalf("without a master's stall: %+v", without)
	}
	w.Faults.MasterStall = &workload.FaultRate{PerYear: 1, Source: "test"}
	with := benchOf(MakePlan(w, "w.yaml", &adr.Inputs{}, "m"), "failover-loss")
	if with == nil || !strings.Contains(with.Command, "modes="+failoverModes+",zombie") ||
		!strings.Contains(with.EstimateFrom, "the zombie's") || with.Estimate <= without.Estimate {
		t.Errorf("with a master's stall: %+v; want the zombie run and timed", with)
	}
}
