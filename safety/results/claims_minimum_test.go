package results

import (
	"strings"
	"testing"
)

// fencedRun is lost-updates under a pause and a clock jump, fenced and not, each
// variant judged n times: what "fencing 3" names.
func fencedRun(n int) []*Variant {
	return []*Variant{
		measured("pause/single/unfenced", StaleApplied, n, n),
		measured("clock-jump/single/unfenced", StaleApplied, n, n),
		measured("pause/single/fenced", StaleApplied, n, 0),
		measured("clock-jump/single/fenced", StaleApplied, n, 0),
		measured("pause/pg-sequence/fenced", StaleApplied, n, 0),
	}
}

func without(vs []*Variant, prefix string) []*Variant {
	var out []*Variant
	for _, v := range vs {
		if !strings.HasPrefix(v.Name, prefix) {
			out = append(out, v)
		}
	}
	return out
}

func TestEveryNamedVariantJudgedTheMinimumIsSupported(t *testing.T) {
	claim := writeupClaim(t, "lost-updates", StaleApplied, "unfenced write")
	if got := claim.Judge(report("lost-updates", fencedRun(MinJudged)...)); got.Verdict != Supported {
		t.Errorf("every variant judged %d times: %+v, want supported", MinJudged, got)
	}
}

// A run of the pause alone (as the correctness ADR's lost-updates) says nothing of the jump.
func TestAHypothesisNamingAVariantThatDidNotRunIsNotShown(t *testing.T) {
	claim := writeupClaim(t, "lost-updates", StaleApplied, "unfenced write")
	got := claim.Judge(report("lost-updates", without(fencedRun(20), "clock-jump/")...))
	if got.Verdict != NotShown {
		t.Fatalf("no clock-jump variant ran: %s, want not shown", got.Verdict)
	}
	for i, missing := range []string{"not run: clock-jump/*/unfenced", "not run: clock-jump/*/fenced"} {
		if r := got.Checks[i]; r.Verdict != NotShown || !strings.Contains(r.Why, missing) {
			t.Errorf("hypothesis %d: %s (%q), want not shown saying %q", i, r.Verdict, r.Why, missing)
		}
	}
}

func TestANamedVariantListedWithNoTrialIsNotRun(t *testing.T) {
	claim := writeupClaim(t, "lost-updates", StaleApplied, "unfenced write")
	vs := fencedRun(20)
	vs[3] = measured("clock-jump/single/fenced", StaleApplied, 0, 0)
	got := claim.Judge(report("lost-updates", vs...))
	if r := got.Checks[1]; r.Verdict != NotShown || !strings.Contains(r.Why, "not run: clock-jump/single/fenced") {
		t.Errorf("a variant with no trial: %s (%q), want not shown, not run", r.Verdict, r.Why)
	}
}

func TestAVariantJudgedFewerThanTheMinimumIsNotShown(t *testing.T) {
	claim := writeupClaim(t, "lost-updates", StaleApplied, "unfenced write")
	vs := fencedRun(20)
	short := measured("clock-jump/single/fenced", StaleApplied, MinJudged-1, 0)
	short.Tally.Trials = 20 // run often enough, but most trials never proved their fault
	vs[3] = short
	got := claim.Judge(report("lost-updates", vs...))
	want := "clock-jump/single/fenced 2"
	if got.Verdict != NotShown || !strings.Contains(got.Checks[1].Why, want) {
		t.Errorf("never, shown by %d judged trials: %s (%q), want not shown naming %q",
			MinJudged-1, got.Verdict, got.Checks[1].Why, want)
	}
	if got.Checks[0].Verdict != Supported {
		t.Errorf("the other hypothesis, every variant judged 20 times: %s, want supported", got.Checks[0].Verdict)
	}
}

// One judged trial that broke a "never" is a counter-example however few were judged.
func TestACounterExampleContradictsBelowTheMinimum(t *testing.T) {
	claim := writeupClaim(t, "lost-updates", StaleApplied, "unfenced write")
	vs := fencedRun(20)
	vs[3] = measured("clock-jump/single/fenced", StaleApplied, 1, 1)
	if got := claim.Judge(report("lost-updates", vs...)); got.Verdict != Contradicted {
		t.Errorf("the fence broke in its one judged trial: %s, want contradicted", got.Verdict)
	}
}

// An occurrence needs one judged break, with its proof, not a count.
func TestAnOccurrenceNeedsNoMinimum(t *testing.T) {
	claim := writeupClaim(t, "redlock-kleppmann", Violations, "clock jump on a node")
	vs := []*Variant{measured("jump", Violations, 1, 1), measured("redlock-failfast/jump", Violations, 1, 1),
		measured("jump-within-drift", Violations, 3, 0), measured("no-jump", Violations, 3, 0)}
	if got := claim.Judge(report("redlock-kleppmann", vs...)); got.Verdict != Supported {
		t.Errorf("each jump broke its one judged trial: %+v, want supported", got)
	}
}

// Fewer names both sides: a distribution whose reference did not run is not shown at each.
func TestFewerNamingAReferenceThatDidNotRunIsNotShown(t *testing.T) {
	claim := writeupClaim(t, "ttl-tradeoff", ExpiredMidWork, "4 x the mean hold")
	var vs []*Variant
	for _, d := range []string{"constant", "exponential", "lognormal", "pareto"} {
		vs = append(vs, measured(d+"/ttl-400ms", ExpiredMidWork, 20, 0), measured(d+"/ttl-25ms", ExpiredMidWork, 20, 20))
	}
	if got := claim.Judge(report("ttl-tradeoff", vs...)); got.Verdict != Supported {
		t.Fatalf("every distribution at both TTLs: %+v, want supported", got)
	}
	got := claim.Judge(report("ttl-tradeoff", vs[:len(vs)-1]...))
	if got.Verdict != NotShown || !strings.Contains(got.Checks[0].Why, "not run: pareto/ttl-25ms") {
		t.Errorf("pareto/ttl-25ms missing: %s (%q), want not shown, not run", got.Verdict, got.Checks[0].Why)
	}
}
