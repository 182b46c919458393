package results

import (
	"strings"
	"testing"
)

// measured is a variant whose judged trials broke on m k times of n.
func measured(name string, m Measure, n, k int) *Variant {
	return &Variant{Name: name, Measure: m, Tally: Tally{Judged: n, Trials: n, Broke: map[Measure]int{m: k}, Headline: ProportionOf(k, n)}}
}

func report(scenario string, vs ...*Variant) []*Report {
	return []*Report{{Scenario: scenario, Variants: vs}}
}

func TestDemonstrationIsContradictedByOneCounterExample(t *testing.T) {
	claim := WriteupClaim{Scenario: "s", By: Orphans, Checks: []Check{
		{Kind: InEvery, Role: Breaking, Variants: []string{"broken"}},
		{Kind: InNone, Role: Fix, Variants: []string{"fixed"}}}}
	cases := []struct {
		name          string
		broken, fixed int // of 20 judged each
		want          Verdict
	}{
		{"always and never", 20, 0, Supported},
		{"the fix broke once", 20, 1, Contradicted},
		{"the forced break missed once", 19, 0, Contradicted},
	}
	for _, c := range cases {
		got := claim.Judge(report("s", measured("broken", Orphans, 20, c.broken), measured("fixed", Orphans, 20, c.fixed)))
		if got.Verdict != c.want {
			t.Errorf("%s: %s, want %s (%+v)", c.name, got.Verdict, c.want, got.Checks)
		}
	}
	// A demonstration with no judged trial shows nothing.
	if got := claim.Judge(report("s", measured("broken", Orphans, 0, 0), measured("fixed", Orphans, 20, 0))); got.Verdict != NotShown {
		t.Errorf("no judged trial: %s, want not shown", got.Verdict)
	}
}

// A variant that never counts the claim's measure reads 0 and would pass for "never".
func TestAMeasureTheVariantDoesNotCountIsNotShown(t *testing.T) {
	claim := WriteupClaim{Scenario: "s", By: CutShort, Checks: []Check{{Kind: InNone, Role: Fix, Variants: []string{"lua"}}}}
	v := measured("lua", Violations, 20, 0)
	if got := claim.Judge(report("s", v)); got.Verdict != NotShown || !strings.Contains(got.Checks[0].Why, "not measured on lua") {
		t.Errorf("unmeasured: %+v", got)
	}
	v.Claims = []Claim{Holds(CutShort)}
	if got := claim.Judge(report("s", v)); got.Verdict != Supported {
		t.Errorf("declared: %+v", got)
	}
}

func fewerClaim(atEach bool) WriteupClaim {
	return WriteupClaim{Scenario: "failover", By: LostLocks, Checks: []Check{
		{Kind: Fewer, Role: Fix, Variants: []string{"wait1-delay-*"}, Than: []string{"none-delay-*"}, AtEach: atEach}}}
}

func TestFewerTestsEachConditionApartWithHolm(t *testing.T) {
	reps := report("failover",
		measured("none-delay-0ms", LostLocks, 20, 12), measured("none-delay-100ms", LostLocks, 20, 1),
		measured("wait1-delay-0ms", LostLocks, 20, 0), measured("wait1-delay-100ms", LostLocks, 20, 0))
	got := fewerClaim(false).Judge(reps)
	if got.Verdict != Supported {
		t.Fatalf("12/20 vs 0/20 at 0 ms: %+v", got)
	}
	seen := got.Checks[0].Seen
	if !strings.Contains(seen, "wait1-delay-0ms vs none-delay-0ms: 0/20 vs 12/20") || !strings.Contains(seen, "Holm over 2 conditions") {
		t.Errorf("seen: %s", seen)
	}
	if why := got.Checks[0].Why; why != "shown at 1 of 2 conditions, not at wait1-delay-100ms vs none-delay-100ms" {
		t.Errorf("supported at one condition of two, but the row does not say where it was not shown: %q", why)
	}
	if got := fewerClaim(true).Judge(reps); got.Verdict != NotShown || !strings.Contains(got.Checks[0].Why, "shown at 1 of 2") {
		t.Errorf("at each delay, with 1/20 vs 0/20 at 100 ms: %+v", got)
	}
}

// Two conditions of 3/10 against 0/10 each are shown at neither (p = 0.105 each);
// pooled into 6/20 against 0/20 they would read p = 0.01. Pooling must not happen.
func TestFewerNeverPoolsConditions(t *testing.T) {
	reps := report("failover",
		measured("none-delay-0ms", LostLocks, 10, 3), measured("none-delay-50ms", LostLocks, 10, 3),
		measured("wait1-delay-0ms", LostLocks, 10, 0), measured("wait1-delay-50ms", LostLocks, 10, 0))
	if got := fewerClaim(false).Judge(reps); got.Verdict != NotShown {
		t.Errorf("pooled conditions: %+v", got)
	}
}

func TestFewerIsContradictedWhenTheFixBreaksMoreOften(t *testing.T) {
	reps := report("failover", measured("none-delay-0ms", LostLocks, 20, 3), measured("wait1-delay-0ms", LostLocks, 20, 15))
	if got := fewerClaim(false).Judge(reps); got.Verdict != Contradicted {
		t.Errorf("15/20 against 3/20: %+v", got)
	}
}

// Fisher's p-value assumes counts fixed in advance; --until-width chose them from the data.
func TestFewerRefusesCountsTheDataChose(t *testing.T) {
	stopped := measured("wait1-delay-0ms", LostLocks, 20, 0)
	stopped.Stopping = "until-width 0.2"
	reps := report("failover", measured("none-delay-0ms", LostLocks, 20, 20), stopped)
	if got := fewerClaim(false).Judge(reps); got.Verdict != NotShown || !strings.Contains(got.Checks[0].Why, "until-width") {
		t.Errorf("stopped by width: %+v", got)
	}
}

func TestOccursNeedsOneJudgedBreak(t *testing.T) {
	claim := WriteupClaim{Scenario: "s", By: LostLocks, Checks: []Check{{Kind: Occurs, Role: Breaking, Variants: []string{"v-*"}}}}
	if got := claim.Judge(report("s", measured("v-1", LostLocks, 20, 0), measured("v-2", LostLocks, 20, 0))); got.Verdict != NotShown {
		t.Errorf("no break: %s", got.Verdict)
	}
	if got := claim.Judge(report("s", measured("v-1", LostLocks, 20, 0), measured("v-2", LostLocks, 20, 1))); got.Verdict != Supported {
		t.Errorf("one break: %s", got.Verdict)
	}
}

func TestClaimsTableGivesEachRanClaimItsVerdict(t *testing.T) {
	reports := []*Report{
		{Scenario: "unsafe-release", Variants: []*Variant{measured("plain-del", Violations, 20, 20), measured("lua-release", Violations, 20, 1)}},
		{Scenario: "setnx-expire", Variants: []*Variant{measured("setnx-then-expire", Orphans, 20, 20), measured("set-nx-px", Orphans, 20, 0)}},
	}
	md := ClaimsTable(reports)
	row := func(scenario string) string {
		for _, line := range strings.Split(md, "\n") {
			if strings.Contains(line, "`"+scenario+"`") {
				return line
			}
		}
		t.Fatalf("no row for %s:\n%s", scenario, md)
		return ""
	}
	if r := row("setnx-expire"); !strings.HasSuffix(r, "**supported** |") || !strings.Contains(r, "setnx-then-expire 20/20 (of 20 run)") {
		t.Errorf("setnx-expire: %s", r)
	}
	if r := row("unsafe-release"); !strings.HasSuffix(r, "**contradicted** |") || !strings.Contains(r, "a judged trial broke: lua-release") {
		t.Errorf("unsafe-release: %s", r)
	}
	if strings.Contains(md, "`pause-past-ttl`") {
		t.Error("a claim whose scenario did not run got a row")
	}
	if ClaimsTable(nil) != "" {
		t.Error("no reports, yet a table")
	}
}

func TestAForcedInterleavingsRowIsADemonstrationWithoutAnInterval(t *testing.T) {
	rep := &Report{Scenario: "setnx-expire", Variants: []*Variant{measured("setnx-then-expire", Orphans, 3, 3)}}
	if md := rep.Table(); !strings.Contains(md, "orphaned_locks: demonstration: 3 of 3 judged (always)") || strings.Contains(md, "3 of 3 judged (44-100%)") {
		t.Errorf("setnx-then-expire row:\n%s", md)
	}
	// A loss that happens by chance is a rate, with its interval.
	rep = &Report{Scenario: "failover-loss", Variants: []*Variant{measured("none-delay-0ms", LostLocks, 3, 1)}}
	if md := rep.Table(); !strings.Contains(md, "lost_locks: 1 of 3 judged (") || strings.Contains(md, "demonstration") {
		t.Errorf("none-delay-0ms row:\n%s", md)
	}
}

// None seen is not none: a never-demonstration keeps its interval, in the claims
// table and in the variant's row.
func TestANeverDemonstrationKeepsItsInterval(t *testing.T) {
	reps := report("setnx-expire", measured("setnx-then-expire", Orphans, 20, 20), measured("set-nx-px", Orphans, 20, 0))
	if md := ClaimsTable(reps); !strings.Contains(md, "set-nx-px 0/20 (0-16%; of 20 run)") {
		t.Errorf("claims table:\n%s", md)
	}
	if md := reps[0].Table(); !strings.Contains(md, "orphaned_locks: demonstration: 0 of 20 judged (never; 0-16%)") {
		t.Errorf("variant row:\n%s", md)
	}
}

// Patterns without a "*" pair by position: constant with constant, pareto with pareto.
func TestStarlessPatternsPairByPosition(t *testing.T) {
	claim := WriteupClaim{Scenario: "ttl", By: ExpiredMidWork, Checks: []Check{{Kind: Fewer, Role: Fix, AtEach: true,
		Variants: []string{"constant/ttl-400ms", "pareto/ttl-400ms"}, Than: []string{"constant/ttl-25ms", "pareto/ttl-25ms"}}}}
	reps := report("ttl",
		measured("constant/ttl-25ms", ExpiredMidWork, 20, 20), measured("pareto/ttl-25ms", ExpiredMidWork, 20, 20),
		measured("constant/ttl-400ms", ExpiredMidWork, 20, 0), measured("pareto/ttl-400ms", ExpiredMidWork, 20, 1))
	got := claim.Judge(reps)
	if got.Verdict != Supported || strings.Count(got.Checks[0].Seen, "ttl-400ms vs ") != 2 || !strings.Contains(got.Checks[0].Seen, "pareto/ttl-400ms vs pareto/ttl-25ms: 1/20 vs 20/20") {
		t.Fatalf("%+v", got)
	}
}

// A never-demonstration whose trial count the data chose keeps the confidence
// sequence, named, not Wilson's interval.
func TestANeverDemonstrationStoppedByWidthKeepsTheSequence(t *testing.T) {
	v := measured("set-nx-px", Orphans, 7, 0)
	v.Stopping = "until-width 0.5"
	rep := &Report{Scenario: "setnx-expire", Variants: []*Variant{v}}
	want := "demonstration: 0 of 7 judged (never; " + span(SequenceOf(0, 7).Lo, SequenceOf(0, 7).Hi) + ", confidence sequence)"
	if md := rep.Table(); !strings.Contains(md, want) {
		t.Errorf("want %q in:\n%s", want, md)
	}
}

// writeupClaim is the claim of the list on scenario, by m, whose text holds part.
func writeupClaim(t *testing.T, scenario string, m Measure, part string) WriteupClaim {
	t.Helper()
	for _, c := range WriteupClaims {
		if c.Scenario == scenario && c.By == m && strings.Contains(c.Claim, part) {
			return c
		}
	}
	t.Fatalf("no claim on %s by %s saying %q", scenario, m, part)
	return WriteupClaim{}
}

// min-replicas-to-write where it bites: every grant refused is a demonstration; one
// grant, no judged trial, or a variant counting lost locks instead is not.
func TestMinReplicasRefusalIsCountedAsRefusalsNeverAsLocksKept(t *testing.T) {
	claim := writeupClaim(t, "failover-loss", GrantsRefused, "refuses the grant")
	if got := claim.Judge(report("failover-loss", measured("min-replicas-stalled", GrantsRefused, 5, 5))); got.Verdict != Supported {
		t.Errorf("5 of 5 refused: %+v", got)
	}
	if got := claim.Judge(report("failover-loss", measured("min-replicas-stalled", GrantsRefused, 5, 4))); got.Verdict != Contradicted {
		t.Errorf("one grant with no good replica: %s, want contradicted", got.Verdict)
	}
	// Refusals ended as not_granted are not judged: they show nothing.
	refused := measured("min-replicas-stalled", GrantsRefused, 0, 0)
	refused.Tally.NotGranted, refused.Tally.Trials = 5, 5
	if got := claim.Judge(report("failover-loss", refused)); got.Verdict != NotShown {
		t.Errorf("every trial not_granted, none judged: %s, want not shown", got.Verdict)
	}
	// Lost locks 0 in every trial is not a refusal: nothing was granted to lose.
	lost := measured("min-replicas-stalled", LostLocks, 5, 0)
	if got := claim.Judge(report("failover-loss", lost)); got.Verdict != NotShown || !strings.Contains(got.Checks[0].Why, "not measured") {
		t.Errorf("counted as lost locks: %+v, want not shown (not measured)", got)
	}
	// The crash-case claims do not read the stalled variant: with every refusal and
	// no crash-case data, they are not run.
	crash := writeupClaim(t, "failover-loss", LostLocks, "min-replicas-to-write loses fewer locks than no guard")
	got := crash.Judge(report("failover-loss", measured("none-delay-0ms", LostLocks, 20, 12), measured("min-replicas-stalled", LostLocks, 20, 0)))
	if got.Verdict != NotShown || !strings.HasPrefix(got.Checks[0].Why, "not run") {
		t.Errorf("crash-case claim on the stalled variant: %+v, want not run", got)
	}
}
