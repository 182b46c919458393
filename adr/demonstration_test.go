package adr

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/adr/adrtest"
	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/results"
)

// One restart a year, 2 locks held on average: a node of the grant restarting empty
// broke 10 of 10 (a forced interleaving). As a rate it read 2 x Wilson(10 of 10) =
// 1.44-2 a year; as the mechanism it is every held lock: exactly 2, no interval.
func TestAlwaysDemonstrationCountsEveryHeldLock(t *testing.T) {
	e := Exposure{Kind: backend.RestartEmptyFault, PerYear: 1, LocksHeld: 2, Held: 0.9}
	m := measure(adrtest.HandReport("redlock-restart", adrtest.HandVariant("redlock/restart-empty", results.Violations, 10, 10)),
		"redlock-restart", []string{"redlock/restart-empty"}, results.Violations, e)
	if m.Demo != Always || m.Year != (Expected{2, 2, 2}) || m.Episodes != (Expected{0.9, 0.9, 0.9}) {
		t.Fatalf("demo %q, year %+v, episodes %+v", m.Demo, m.Year, m.Episodes)
	}
	if rate := PerYear(1, 2, m.P); rate.Lo >= 2 {
		t.Fatalf("the hand case does not separate a rate from the mechanism: %+v", rate)
	}
	text := measuredText(m)
	if !strings.HasPrefix(text, "10 of 10 judged, a forced interleaving: the mechanism breaks it always (not a rate)") || strings.Contains(text, "%") || !strings.HasSuffix(text, ": 2.00 a year") {
		t.Fatalf("text: %s", text)
	}
}

// A pause costs a lock-free way nothing: 0 of 10, forced. As a rate it was "below 26%
// per fault" and needed 12 more trials at a budget of 1; as the mechanism it is 0 a
// year, and no trial count is asked of it.
func TestNeverDemonstrationIsZeroNotABound(t *testing.T) {
	e := Exposure{Kind: backend.ClientPauseFault, PerYear: 2, LocksHeld: 2, Held: 1}
	e.Data = measure(adrtest.HandReport("lost-updates", adrtest.HandVariant("pause/cas-version", results.LostUpdates, 10, 0)),
		"lost-updates", []string{"pause/cas-version"}, results.LostUpdates, e)
	if e.Data.Demo != Never || e.Data.Year != (Expected{}) {
		t.Fatalf("demo %q, year %+v", e.Data.Demo, e.Data.Year)
	}
	if text := measuredText(e.Data); text != "0 of 10 judged, a forced interleaving: the mechanism never breaks it (not a rate): 0 a year" {
		t.Fatalf("text: %s", text)
	}
	if got := trialsNeeded([]Exposure{e}, 1); strings.Contains(got, "client_pause") {
		t.Fatalf("trials asked of a mechanism: %s", got)
	}
}

// A forced interleaving that broke in some trials only contradicts its claim: it is
// counted at its worst (every held lock), its lower end 0, never as 7 of 10.
func TestMixedDemonstrationCountsAtItsWorst(t *testing.T) {
	e := Exposure{Kind: backend.RestartEmptyFault, PerYear: 1, LocksHeld: 2, Held: 0.9}
	m := measure(adrtest.HandReport("redlock-restart", adrtest.HandVariant("redlock/restart-empty", results.Violations, 10, 7)),
		"redlock-restart", []string{"redlock/restart-empty"}, results.Violations, e)
	if m.Demo != Mixed || m.Year != (Expected{Central: 2, Hi: 2}) {
		t.Fatalf("demo %q, year %+v", m.Demo, m.Year)
	}
	if text := measuredText(m); !strings.HasPrefix(text, "7 of 10 judged, a forced interleaving that is neither always nor never") || !strings.HasSuffix(text, "at most 2.00 a year") {
		t.Fatalf("text: %s", text)
	}
}

// Each variant is its own demonstration: watchdog 0 of 10 beside no-watchdog 10 of 10
// is not "10 of 20" but a contradicted mechanism.
func TestDemonstrationsAreNotPooled(t *testing.T) {
	e := Exposure{Kind: backend.ClientPauseFault, PerYear: 1, LocksHeld: 1, Held: 1}
	m := measure(adrtest.HandReport("pause-past-ttl", adrtest.HandVariant("single/no-watchdog", results.StaleAccepted, 10, 10), adrtest.HandVariant("single/watchdog", results.StaleAccepted, 10, 0)),
		"pause-past-ttl", []string{"single/no-watchdog", "single/watchdog"}, results.StaleAccepted, e)
	if m.Demo != Mixed {
		t.Fatalf("demo %q", m.Demo)
	}
}

// A drawn fault stays a rate: failover-loss's 0 of 10 keeps its Wilson bound.
func TestARateIsNotADemonstration(t *testing.T) {
	e := Exposure{Kind: backend.FailoverFault, PerYear: 2, LocksHeld: 2, Held: 1}
	m := measure(adrtest.HandReport("failover-loss", adrtest.HandVariant("none-delay-0ms", results.LostLocks, 10, 0)),
		"failover-loss", []string{"none-delay-*"}, results.LostLocks, e)
	if m.Demo != NotDemo || m.Year.Hi < 1.1 || m.Year.Hi > 1.12 {
		t.Fatalf("demo %q, year %+v", m.Demo, m.Year)
	}
}

// Every side of every probe reads demonstrations only or rates only, so a forced
// interleaving is never pooled into a rate.
func TestNoProbeMixesDemonstrationsAndRates(t *testing.T) {
	sample := func(p string) string { return strings.ReplaceAll(p, "*", "0ms") }
	uniform := func(scenario string, patterns []string) bool {
		demo := 0
		for _, p := range patterns {
			if results.Demonstrated(scenario, sample(p)) {
				demo++
			}
		}
		return demo == 0 || demo == len(patterns)
	}
	for _, o := range probeOptions() {
		for _, k := range workload.FaultKinds {
			p, ok := ProbeFor(k, o)
			if !ok {
				continue
			}
			if !uniform(p.Scenario, p.Mutex) || !uniform(p.DataScenario(), p.Data) {
				t.Errorf("%s %v/%s mixes demonstrations and rates: %v / %v", k, o.Kind, o.Probe, p.Mutex, p.Data)
			}
		}
	}
}
