package results

import (
	"strings"
	"testing"
)

// oneRun is a run of one scenario whose two trials both broke.
func oneRun() Results {
	v := &Variant{Name: "plain-del", Measure: Violations}
	for n := range 2 {
		v.Add(Trial{N: n, Seed: uint64(100 + n), Outcome: Judged, Counts: map[Measure]int{Violations: 1}, Proof: []string{"ttl ran out"}})
	}
	return Results{Reports: []*Report{{Scenario: "unsafe-release", Variants: []*Variant{v}}}}
}

func TestReplayDifferencesOfARunAndItsCopyIsEmpty(t *testing.T) {
	if d := ReplayDifferences(oneRun(), oneRun()); len(d) != 0 {
		t.Errorf("a run against its copy: %q", d)
	}
	timed := oneRun()
	timed.Reports[0].Variants[0].Trials[1].Proof = []string{"ttl ran out after 101 ms"} // timings are the run's own
	if d := ReplayDifferences(oneRun(), timed); len(d) != 0 {
		t.Errorf("a proof line's text told apart: %q", d)
	}
}

// Each way a replay can differ is reported, naming the trial or the tally.
func TestReplayDifferencesNamesWhatDiffers(t *testing.T) {
	cases := map[string]struct {
		change func(*Results)
		want   string
	}{
		"outcome": {func(r *Results) {
			v := r.Reports[0].Variants[0]
			v.Trials[1].Outcome = FaultNotProduced
			v.Tally = TallyOf(v.Measure, v.Trials)
		}, "unsafe-release/plain-del trial 1"},
		"seed":                     {func(r *Results) { r.Reports[0].Variants[0].Trials[0].Seed = 7 }, "trial 0"},
		"counts only in the tally": {func(r *Results) { r.Reports[0].Variants[0].Tally.Broke[Violations] = 1 }, "plain-del tally"},
		"a missing trial": {func(r *Results) {
			v := r.Reports[0].Variants[0]
			v.Trials = v.Trials[:1]
		}, "2 trials against plain-del with 1"},
		"another scenario": {func(r *Results) { r.Reports[0].Scenario = "setnx-expire" }, "report 0"},
		"a report fewer":   {func(r *Results) { r.Reports = nil }, "1 reports against 0"},
	}
	for name, c := range cases {
		changed := oneRun()
		c.change(&changed)
		d := ReplayDifferences(oneRun(), changed)
		if len(d) == 0 || !strings.Contains(strings.Join(d, "\n"), c.want) {
			t.Errorf("%s: differences %q, want one naming %q", name, d, c.want)
		}
	}
}
