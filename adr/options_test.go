package adr

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/adr/adrtest"
	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/safety/results"
)

func decideSynthetic(t *testing.T, file string) *Decision {
	t.Helper()
	bench, safety := adrtest.Folders(t)
	w := loadWorkload(t, file)
	in, err := LoadInputs([]string{bench, safety})
	if err != nil {
		t.Fatal(err)
	}
	return Decide(w, in)
}

func option(t *testing.T, d *Decision, name string) *Option {
	t.Helper()
	for _, o := range d.Options {
		if o.Name == name {
			return o
		}
	}
	t.Fatalf("no option %q", name)
	return nil
}

// An option only the safety results know is listed with its cost "not measured", and a
// fault no result measures reads "not measured": neither is dropped.
func TestMissingResultsAreListedAsNotMeasured(t *testing.T) {
	d := decideSynthetic(t, "testdata/efficiency.yaml")
	wait2 := option(t, d, "sentinel + WAIT 2")
	if wait2.Cost.Measured || wait2.Verdict.Meets {
		t.Fatalf("sentinel + WAIT 2 has no benchmark cell: %+v", wait2.Cost)
	}
	md := Markdown(d, Meta{Date: "2026-12-01", Command: "lockbench adr"})
	row := lineWith(t, md, "| sentinel + WAIT 2 |")
	if !strings.Contains(row, "| not measured | not measured | not measured |") {
		t.Fatalf("row: %s", row)
	}
	if !strings.Contains(lineWith(t, md, "| redlock-failfast |"), "| not measured |") {
		t.Fatalf("redlock-failfast's unmeasured faults are not said: %s", lineWith(t, md, "| redlock-failfast |"))
	}
	reasons := md[strings.Index(md, "Why each verdict:"):]
	if why := lineWith(t, reasons, "* redlock-failfast: "); !strings.Contains(why, "client_pause (not in the given results") {
		t.Fatalf("redlock-failfast's reasons do not name its unmeasured faults: %s", why)
	}
}

// Correctness: a lock alone never qualifies, a fence that let a violation through is
// ruled out by that measurement, one missing measurements is not chosen, and the
// lock-free way that lost nothing is (the write-up's rule 1).
func TestCorrectnessFollowsTheWriteupsRules(t *testing.T) {
	d := decideSynthetic(t, "testdata/correctness.yaml")
	if d.Chosen == nil || d.Chosen.Name != "cas-version (no lock)" {
		t.Fatalf("chose %v", d.Chosen)
	}
	if v := option(t, d, "unique-key (no lock)").Verdict; v.Meets || !strings.Contains(strings.Join(v.Why, ";"), "cost not measured") {
		t.Fatalf("unique-key has no update cell: %+v", v)
	}
	if v := option(t, d, "single").Verdict; v.Meets || !v.RuledOut {
		t.Fatalf("a lock alone: %+v", v)
	}
	if v := option(t, d, "etcd + fence").Verdict; !v.RuledOut || !strings.Contains(strings.Join(v.Why, ";"), "at least 2.00 violations reaching the data a year, over the budget of 1.2") {
		t.Fatalf("etcd + fence after a lone member lost its disk: %+v", v)
	}
	if v := option(t, d, "single + fence").Verdict; v.RuledOut || len(v.Missing) == 0 {
		t.Fatalf("single + fence: only measurements missing: %+v", v)
	}
}

// None seen in a few trials of a rate does not choose: at a budget of 1 a year, a fenced
// option whose only fault, 2 failovers a year finding 2 locks held, reached the data in
// 0 of 10 judged trials has an upper end of 4 x z²/(10 + z²) = 1.11 a year, and the ADR
// says how many judged trials would show it (12: 4 x z²/(12 + z²) = 0.97).
func TestNoneSeenInFewTrialsDoesNotChoose(t *testing.T) {
	w := withViolationBudget(loadWorkload(t, "testdata/correctness.yaml"), 1)
	e := Exposure{Kind: backend.FailoverFault, PerYear: 2, LocksHeld: 2, Held: 1}
	e.Data = measure(adrtest.HandReport("fence-regression", adrtest.HandVariant("sentinel/lagging-followers", results.ReissuedTokens, 10, 0)),
		"fence-regression", []string{"sentinel/lagging-followers"}, results.ReissuedTokens, e)
	o := &Option{Name: "sentinel + fence", Kind: Fenced, Probe: "sentinel", Cost: Cost{Measured: true, Within: true}, Faults: []Exposure{e}}
	v := judge(w, o)
	if why := strings.Join(v.Why, ";"); v.Meets || v.RuledOut || !strings.Contains(why, "up to 1.11 violations reaching the data a year, over the budget of 1") || !strings.Contains(why, "failover 12 (has 10)") {
		t.Fatalf("0 of 10 at a budget of 1: %+v", v)
	}
}

// A demonstration is not a few trials of a rate: on the synthetic results at a budget
// of 1, cas-version's pause is the lost-updates claim's forced interleaving, 0 of 10
// (never), so it counts 0 a year and cas-version is chosen.
func TestANeverDemonstrationChoosesOnItsMechanism(t *testing.T) {
	w := withViolationBudget(loadWorkload(t, "testdata/correctness.yaml"), 1)
	bench, safety := adrtest.Folders(t)
	in, err := LoadInputs([]string{bench, safety})
	if err != nil {
		t.Fatal(err)
	}
	d := Decide(w, in)
	if d.Chosen == nil || d.Chosen.Name != "cas-version (no lock)" || d.Chosen.Verdict.Year != (Expected{}) {
		t.Fatalf("chose %v", d.Chosen)
	}
}

// The efficiency budget counts unmeasured faults at their worst: lowering it under
// that bound rules the option out.
func TestEfficiencyCountsUnmeasuredFaultsAtTheirWorst(t *testing.T) {
	d := decideSynthetic(t, "testdata/efficiency.yaml")
	if d.Chosen == nil || d.Chosen.Name != "single" {
		t.Fatalf("chose %v", d.Chosen)
	}
	if v := option(t, d, "cas-version (no lock)").Verdict; v.Meets {
		t.Fatalf("no lock cannot save duplicate work: %+v", v)
	}
	// redlock: no pause-past-ttl nor host-crash variant for it, and its clock jump
	// measured only at the lab's sizes (not sized): all three count at their worst.
	redlock := option(t, d, "redlock")
	pause, jump := redlock.Faults[slices.Index(workload.FaultKinds, backend.ClientPauseFault)], redlock.Faults[slices.Index(workload.FaultKinds, backend.ClockJumpFault)]
	crash := redlock.Faults[slices.Index(workload.FaultKinds, backend.HostCrashFault)]
	if pause.Kind != backend.ClientPauseFault || pause.Mutex != nil || jump.Kind != backend.ClockJumpFault || jump.Mutex == nil || jump.Mutex.Uncounted == "" {
		t.Fatalf("redlock's pause %+v, jump %+v: want the pause unmeasured and the jump not sized", pause, jump)
	}
	if crash.Kind != backend.HostCrashFault || crash.Mutex != nil || crash.MutexIn != "redlock-restart" {
		t.Fatalf("redlock's host crash %+v: want it unmeasured, in redlock-restart", crash)
	}
	if want := pause.PerYear*pause.LocksHeld + jump.PerYear*jump.LocksHeld + crash.PerYear*crash.LocksHeld; redlock.Verdict.Unmeasured != want {
		t.Fatalf("redlock's unmeasured bound %v, want %v", redlock.Verdict.Unmeasured, want)
	}
}

func lineWith(t *testing.T, text, prefix string) string {
	t.Helper()
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	t.Fatalf("no line starting %q", prefix)
	return ""
}

// probeOptions is every option the probes tell apart: each registered strategy alone
// and fenced, each of its guards, and the lock-free ways.
func probeOptions() []*Option {
	var out []*Option
	for _, st := range linked.Catalog().Strategies() {
		out = append(out, &Option{Kind: Lock, Probe: st.Name}, &Option{Kind: Fenced, Probe: st.Name})
		for _, g := range st.Guards {
			out = append(out, &Option{Kind: Lock, Probe: st.Name, Mode: g.Mode})
		}
	}
	for _, s := range LockFreeStrategies {
		out = append(out, &Option{Kind: LockFree, Probe: s})
	}
	return out
}

// Every pattern the ADR reads a probability from is one claims.go maps the write-up's
// claims to: a sample name of each must match a claim's pattern of the same scenario.
func TestProbesUseTheClaimsPatterns(t *testing.T) {
	sample := func(p string) string { return strings.ReplaceAll(p, "*", "0ms") }
	claimed := func(scenario, name string) bool {
		for _, c := range results.WriteupClaims {
			if c.Scenario != scenario {
				continue
			}
			if results.Names(c.Patterns(), name) {
				return true
			}
		}
		return false
	}
	for _, o := range probeOptions() {
		for _, k := range workload.FaultKinds {
			p, ok := ProbeFor(k, o)
			if !ok {
				continue
			}
			for _, pat := range p.Mutex {
				if !claimed(p.Scenario, sample(pat)) {
					t.Errorf("%s %v/%s: %s of %s is no claim's", k, o.Kind, o.Probe, pat, p.Scenario)
				}
			}
			for _, pat := range p.Data {
				if !claimed(p.DataScenario(), sample(pat)) {
					t.Errorf("%s %v/%s: data %s of %s is no claim's", k, o.Kind, o.Probe, pat, p.DataScenario())
				}
			}
			if p.DataBy != "" && !slices.Contains(results.Measures, p.DataBy) {
				t.Errorf("%s %v/%s: data measured by %q, no measure of safety/results", k, o.Kind, o.Probe, p.DataBy)
			}
		}
	}
}

// A folder that is neither kind, or none at all, is bad input named by its path.
func TestInputsThatAreNotResultsFoldersAreNamed(t *testing.T) {
	dir := t.TempDir()
	if _, err := LoadInputs([]string{dir}); err == nil || !strings.Contains(err.Error(), dir) {
		t.Fatalf("empty folder: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "results.json"), []byte(`{"something": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadInputs([]string{dir}); err == nil || !strings.Contains(err.Error(), "neither cells") {
		t.Fatalf("foreign results.json: %v", err)
	}
	_ = adrtest.Reports
}

// Which faults reach an option is the store's declaration, not its name: a Redlock of
// three nodes is no consensus group of three (nothing is promoted), and a guard of the
// Sentinel's is measured by its own failover-loss mode, with no crash model.
func TestFaultsReachAStrategyByItsStoresDeclaration(t *testing.T) {
	if na := NotApplicable(backend.FailoverFault, &Option{Kind: Lock, Probe: "redlock-3"}); na == "" {
		t.Error("redlock-3 has a failover")
	}
	for _, name := range []string{"etcd-3", "zookeeper-3", "sentinel", "wait", "cluster"} {
		if na := NotApplicable(backend.FailoverFault, &Option{Kind: Lock, Probe: name}); na != "" {
			t.Errorf("%s: %s", name, na)
		}
	}
	guard := &Option{Kind: Lock, Probe: "sentinel", Mode: "wait2"}
	if p, ok := ProbeFor(backend.FailoverFault, guard); !ok || len(p.Mutex) != 1 || p.Mutex[0] != "wait2-delay-*" {
		t.Errorf("WAIT 2's probe: %+v, %v", p, ok)
	}
	if m := mechanismOf(backend.FailoverFault, guard); m != "" {
		t.Errorf("WAIT 2's failover sized by %s", m)
	}
	if m := mechanismOf(backend.FailoverFault, &Option{Kind: Lock, Probe: "sentinel"}); m != backend.AsyncPromotion {
		t.Errorf("the Sentinel's unguarded failover: %q", m)
	}
	if _, ok := ProbeFor(backend.FailoverFault, &Option{Kind: Lock, Probe: "sentinel", Mode: "no-such-mode"}); ok {
		t.Error("a mode the store declared no guard of has a probe")
	}
}

// Safety results alone give the options their variants measure, by the stores'
// declarations: the Sentinel by failover-loss's unguarded variants, wait by WAIT 1's,
// a consensus group by its leader kill, a guard only where its own mode ran.
func TestSafetyOnlyResultsGiveTheOptionsTheirProbesName(t *testing.T) {
	report := func(scenario string, names ...string) *results.Report {
		r := &results.Report{Scenario: scenario}
		for _, n := range names {
			r.Variants = append(r.Variants, &results.Variant{Name: n})
		}
		return r
	}
	in := &Inputs{Safety: []*results.Report{
		report("failover-loss", "none-delay-0ms", "wait1-delay-0ms", "min-replicas-delay-0ms"),
		report("etcd-leader-kill", "zookeeper-3-leader-kill"),
	}}
	var got []string
	for _, o := range Options(in) {
		got = append(got, o.Name)
	}
	for _, want := range []string{"sentinel", "wait", "zookeeper-3", "sentinel + min-replicas-to-write 1"} {
		if !slices.Contains(got, want) {
			t.Errorf("options %v: no %s", got, want)
		}
	}
	for _, absent := range []string{"sentinel + WAIT 2", "etcd-3", "zookeeper", "single"} {
		if slices.Contains(got, absent) {
			t.Errorf("options %v: %s, which nothing measured", got, absent)
		}
	}
}

// Efficiency rules an option out by correctness's rule: only when the lower end of its
// duplicates a year is over the budget. An interval that straddles the budget (1 of 4
// judged: 0.9-14 a year against 10) is not yet, however high its upper end.
func TestEfficiencyRulesOutOnTheLowerEndOnly(t *testing.T) {
	w := loadWorkload(t, "testdata/efficiency.yaml")
	for _, c := range []struct {
		year     Expected
		ruledOut bool
		why      string
	}{
		{Expected{Central: 5, Lo: 0.9, Hi: 14}, false, "up to 14.0 duplicate runs a year (at least 0.900), over the budget of 10: more trials narrow it"},
		{Expected{Central: 20, Lo: 16.8, Hi: 20}, true, "at least 16.8 duplicate runs a year, over the budget of 10"},
	} {
		e := Exposure{Kind: backend.FailoverFault, PerYear: 20, LocksHeld: 1, Held: 1,
			Mutex: &Measured{Scenario: "failover-loss", By: results.Violations, Year: c.year}}
		o := &Option{Name: "sentinel", Kind: Lock, Probe: "sentinel", Cost: Cost{Measured: true, Within: true}, Faults: []Exposure{e}}
		v := judge(w, o)
		if why := strings.Join(v.Why, "; "); v.Meets || v.RuledOut != c.ruledOut || why != c.why {
			t.Errorf("duplicates %+v a year: ruled out %v, why %q; want %v, %q", c.year, v.RuledOut, why, c.ruledOut, c.why)
		}
	}
}

// A workload whose harm includes a change applied twice names redelivery: a lock-free
// writer that applies a scripted redelivery twice (cas-version, 10 of 10, a forced
// interleaving its claim backs) is ruled out at 12 redeliveries a year, a unique key
// (0 of 10) counts none, and a lock counts it as missing evidence: no scenario runs a
// redelivery through a lock service.
func TestRedeliveryCountsTheChangesAppliedTwice(t *testing.T) {
	w := withViolationBudget(loadWorkload(t, "testdata/correctness.yaml"), 1)
	w.Faults.Redelivery = &workload.FaultRate{PerYear: 12, Source: "team's guess"}
	if slices.Index(w.FaultKinds(), backend.RedeliveryFault) < 0 {
		t.Fatal("a workload that names redelivery weighs it")
	}
	d := decideSynthetic(t, "testdata/correctness.yaml")
	d = Decide(w, d.Inputs)
	at := func(o *Option) Exposure {
		for _, e := range o.Faults {
			if e.Kind == backend.RedeliveryFault {
				return e
			}
		}
		t.Fatalf("%s: no redelivery exposure", o.Name)
		return Exposure{}
	}
	cas := option(t, d, "cas-version (no lock)")
	if e := at(cas); e.Data == nil || e.Data.Demo != Always || e.Data.Year != (Expected{12, 12, 12}) {
		t.Errorf("cas-version under redelivery: %+v", e.Data)
	}
	if v := cas.Verdict; v.Meets || !v.RuledOut || !strings.Contains(strings.Join(v.Why, ";"), "at least 12.0 violations") {
		t.Errorf("cas-version applies every redelivery twice: %+v", v)
	}
	if e := at(option(t, d, "unique-key (no lock)")); e.Data == nil || e.Data.Demo != Never || e.Data.Year != (Expected{}) {
		t.Errorf("unique-key under redelivery: %+v", e.Data)
	}
	fenced := option(t, d, "etcd + fence")
	if e := at(fenced); e.NA != "" || e.Data != nil || !slices.Contains(fenced.Verdict.Missing,
		"redelivery (no lockbench scenario measures it for etcd + fence)") {
		t.Errorf("a lock under redelivery: %+v, missing %v", e, fenced.Verdict.Missing)
	}
	if d.Chosen != nil && d.Chosen.Name == "cas-version (no lock)" {
		t.Error("chose the writer that applies redeliveries twice")
	}
}
