package adr

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/adr/adrtest"
	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/safety/results"
)

// lagReport is replication-lag with one variant per rate, each one trial whose lags are given.
func lagReport(rates map[string]float64, lags []float64) *results.Report {
	rep := &results.Report{Scenario: "replication-lag"}
	for name, rate := range rates {
		in := map[string]float64{"load_per_s": rate}
		for i, l := range lags {
			in[fmt.Sprintf("lag_ms_r0_p%03d", i)] = l
		}
		v := &results.Variant{Name: name, Measure: results.ProbesUnseen}
		v.Add(results.Trial{Outcome: results.Judged, Inputs: in})
		rep.Variants = append(rep.Variants, v)
	}
	return rep
}

// Hold 2 ms, lags 0.5, 1 and 3 ms: min(lag, hold) / hold = 0.25, 0.5, 1, mean 0.5833.
// The workload writes 2 x 100 + 50 = 250/s: the variant at 300/s is the smallest above.
func TestCrashModelByHand(t *testing.T) {
	w := &workload.Workload{LockRate: 100, OtherWrites: 50}
	w.HoldD = 2e6
	reps := []*results.Report{lagReport(map[string]float64{"rate-200": 200, "rate-300": 300, "rate-900": 900}, []float64{0.5, 1, 3})}
	m, why := crashModel(w, reps)
	if why != "" {
		t.Fatal(why)
	}
	if m.LagVariant != "rate-300" || m.WriteRate != 250 || m.Samples != 3 {
		t.Errorf("chose %s at %v for %v/s with %d samples", m.LagVariant, m.LagRate, m.WriteRate, m.Samples)
	}
	adrtest.Near(t, "P(lost | held)", m.P.Central, 0.583333)
	if !(m.P.Lo < m.P.Central && m.P.Central < m.P.Hi) {
		t.Errorf("interval %+v", m.P)
	}
	w.OtherWrites = 1000 // 1200/s: above every measured rate
	if _, why := crashModel(w, reps); !strings.Contains(why, "below the workload's 1200") {
		t.Errorf("above every rate: %q", why)
	}
	if _, why := crashModel(w, nil); !strings.Contains(why, "no replication-lag results") {
		t.Errorf("no results: %q", why)
	}
}

// The check calls each trial lost exactly when the promoted replica's lag exceeded the
// delay: at 10 ms, lags 5, 15, 25 predict 2 of 3; two were lost, the third kept where
// the model said lost: 2 of 3 called.
func TestCrashCheckCallsEachTrial(t *testing.T) {
	v := &results.Variant{Name: "none-delay-10ms", Measure: results.LostLocks}
	for i, c := range []struct {
		lag  float64
		lost int
	}{{5, 0}, {15, 1}, {25, 0}} {
		v.Add(results.Trial{N: i, Outcome: results.Judged, Inputs: map[string]float64{"delay_ms": 10, "lag_promoted_ms": c.lag},
			Counts: map[results.Measure]int{results.LostLocks: c.lost}})
	}
	c := crashCheck([]*results.Report{{Scenario: "failover-loss", Variants: []*results.Variant{v}}})
	if len(c.Rows) != 1 || c.Agree != 2 || c.Trials != 3 {
		t.Fatalf("check %+v", c)
	}
	adrtest.Near(t, "predicted", c.Rows[0].Predicted, 2.0/3)
	if c.Within != 1 { // 1 of 3 lost: 6-79% contains 67%
		t.Errorf("within %d, interval %v", c.Within, c.Rows[0].Measured)
	}
}

// The lab's own reading wins over the lag: a pause that ended 5 ms after the kill
// means the grant was not applied, whatever the lag and delay say.
func TestNotAppliedReadsThePauseEndFirst(t *testing.T) {
	if got, ok := notApplied(map[string]float64{"pause_end_after_kill_promoted_ms": 5, "lag_promoted_ms": 1}, 10); !ok || !got {
		t.Errorf("pause ended after the kill: %v %v", got, ok)
	}
	if got, ok := notApplied(map[string]float64{"pause_end_after_kill_promoted_ms": -5, "lag_promoted_ms": 50}, 10); !ok || got {
		t.Errorf("pause ended before the kill: %v %v", got, ok)
	}
	if _, ok := notApplied(map[string]float64{}, 10); ok {
		t.Error("no reading at all")
	}
}

// The crash model enters only when its check holds: every kill delay's interval holds
// its prediction. One that misses (95% predicted at 0 ms, 8 of 20 lost) keeps it out,
// as does no check at all.
func TestOnlyACrashModelItsCheckHoldsSizes(t *testing.T) {
	row := func(predicted float64, lost int) CrashCheckRow {
		return CrashCheckRow{Variant: "none-delay-0ms", Predicted: predicted, Measured: results.ProportionOf(lost, 20)}
	}
	for _, c := range []struct {
		name  string
		check CrashCheck
		want  string
	}{
		{"kept", CrashCheck{Rows: []CrashCheckRow{row(0.9, 18)}, Within: 1}, ""},
		{"broken", CrashCheck{Rows: []CrashCheckRow{row(0.9, 18), row(0.95, 8)}, Within: 1},
			"the crash-failover model failed its check: 1 of 2 kill delays' intervals miss its prediction"},
		{"never checked", CrashCheck{}, "the crash-failover model is unchecked: no failover-loss trial with no guard"},
	} {
		if got := c.check.failure(); !strings.HasPrefix(got, c.want) || (c.want == "") != (got == "") {
			t.Errorf("%s: failure %q, want %q", c.name, got, c.want)
		}
	}
}

// Lag samples are resampled by trial: five trials whose 100 samples each sit at 10, 20,
// 30, 40 and 50% of the hold have a mean of 30%, and an interval as wide as five trials
// allow, not the sliver 500 independent samples would give (28.8-31.2%). One trial gives
// no spread between trials: 0-1.
func TestCrashModelIntervalResamplesTrials(t *testing.T) {
	var trials [][]float64
	for i := 1; i <= 5; i++ {
		var lags []float64
		for range 100 {
			lags = append(lags, float64(i))
		}
		trials = append(trials, lags)
	}
	share := func(l float64) float64 { return l / 10 }
	p := trialBootstrap(trials, share)
	adrtest.Near(t, "mean", p.Central, 0.3)
	t.Logf("five trials: %+v", p)
	if p.Lo > 0.2 || p.Hi < 0.4 || p.Lo < 0.1 || p.Hi > 0.5 {
		t.Errorf("interval %+v: want about 18-42%%, the spread of five trial means", p)
	}
	if again := trialBootstrap(trials, share); again != p {
		t.Errorf("the same trials gave %+v, then %+v", p, again)
	}
	if one := trialBootstrap(trials[:1], share); one.Lo != 0 || one.Hi != 1 {
		t.Errorf("one trial: %+v, want 0-1", one)
	}
}

// A workload that gives its own lag is read instead of the lab's: hold 2 ms, p50 0.5 ms,
// p99 3 ms. min(lag, hold) / hold is 0.25 at the p50 and 1 at the p99, so the lower end
// is 0.49 x 0.25 + 0.01 x 1 = 0.1325 and the upper 0.5 x 0.25 + 0.49 x 1 + 0.01 = 0.625.
// Without it the line says the lag is the lab's.
func TestCrashModelReadsTheTeamsLag(t *testing.T) {
	w := &workload.Workload{LockRate: 100}
	w.HoldD = 2e6
	w.ReplicationLag = &workload.Lag{P50D: 500e3, P99D: 3e6, Source: "INFO replication, a week"}
	m, why := crashModel(w, nil)
	if why != "" {
		t.Fatal(why)
	}
	adrtest.Near(t, "lower end", m.P.Lo, 0.1325)
	adrtest.Near(t, "upper end", m.P.Hi, 0.625)
	adrtest.Near(t, "midpoint", m.P.Central, (0.1325+0.625)/2)
	if line := m.Line(); !strings.Contains(line, "the team's replication lag") ||
		!strings.Contains(line, "p50 500µs, p99 3ms: INFO replication, a week") {
		t.Errorf("line: %s", line)
	}
	w.ReplicationLag = nil
	reps := []*results.Report{lagReport(map[string]float64{"rate-300": 300}, []float64{0.5, 1, 3})}
	if m, _ := crashModel(w, reps); !strings.Contains(m.Line(), "the lab's replication lag (a loopback replica's, not the team's") {
		t.Errorf("the lab's lag is not said as the lab's: %s", m.Line())
	}
}
