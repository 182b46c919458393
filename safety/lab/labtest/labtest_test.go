package labtest

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/safety/results"
)

// TestOnlyANaturalRateGoesUnasserted: a "some" claim that no judged trial broke fails,
// unless its variant's fault comes at the scheduler's rate; a natural variant's "none"
// claim that broke still fails, and so does a judged trial without a proof.
func TestOnlyANaturalRateGoesUnasserted(t *testing.T) {
	variant := func(name string, natural bool, claims ...results.Claim) *results.Variant {
		v := &results.Variant{Name: name, Measure: results.LostLocks, Claims: claims, Natural: natural}
		v.Add(results.Trial{N: 0, Outcome: results.Judged, Proof: []string{"p"},
			Counts: map[results.Measure]int{results.LostLocks: 0, results.Violations: 1}})
		return v
	}
	rep := &results.Report{Scenario: "s", Variants: []*results.Variant{
		variant("forced", false, results.Breaks(results.LostLocks)),
		variant("natural", true, results.Breaks(results.LostLocks), results.Holds(results.Violations)),
	}}
	failures, rates := ClaimFailures(rep)
	joined := strings.Join(failures, "\n")
	if len(failures) != 2 || !strings.Contains(joined, "s/forced: claim lost_locks some") ||
		!strings.Contains(joined, "s/natural: claim violations none") {
		t.Errorf("failures %q: want forced's unbroken some and natural's broken none", failures)
	}
	if len(rates) != 1 || !strings.Contains(rates[0], "s/natural: claim lost_locks some is a natural rate") {
		t.Errorf("rates %q: want natural's some claim reported", rates)
	}
	rep.Variants[1].Trials[0].Proof = nil
	if failures, _ := ClaimFailures(rep); !strings.Contains(strings.Join(failures, "\n"), "judged without a proof") {
		t.Errorf("failures %q: want the trial without a proof", failures)
	}
}
