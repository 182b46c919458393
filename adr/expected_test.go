package adr

import (
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/adr/adrtest"
	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/results"
)

// Wilson for 2 of 20 by hand: p = 0.1, z = 1.959964, z² = 3.841459;
// centre = (0.1 + 3.841459/40) / (1 + 3.841459/20) = 0.196036/1.192073 = 0.164450;
// half = 1.959964/1.192073 x sqrt(0.1 x 0.9/20 + 3.841459/1600) = 1.644166 x 0.083072 = 0.136584;
// so 0.027866 to 0.301034. Four failovers a year, a lock always held:
// 4 x 2/20 = 0.4, 4 x 0.027866 = 0.111464, 4 x 0.301034 = 1.204136.
func TestExpectedViolationsByHand(t *testing.T) {
	e := PerYear(4, 1, results.ProportionOf(2, 20))
	adrtest.Near(t, "central", e.Central, 0.4)
	adrtest.Near(t, "lo", e.Lo, 0.111464)
	adrtest.Near(t, "hi", e.Hi, 1.204136)
}

// One global lock taken every 2 s and held 1 s is held half the time (a mutex: holds
// never overlap), so a fault finds it held with chance 0.5, not 1 - e^-0.5; 10 pauses a
// year, 5 of 5 broke: 5 a year.
func TestAGlobalMutexIsHeldRateTimesHold(t *testing.T) {
	o := workload.OccupancyOf(0.5, time.Second, workload.Keys{Count: 1, Distribution: workload.Uniform})
	adrtest.Near(t, "any held", o.AnyHeld, 0.5)
	adrtest.Near(t, "locks held", o.LocksHeld, 0.5)
	adrtest.Near(t, "central", PerYear(10, o.AnyHeld, results.ProportionOf(5, 5)).Central, 5)
}

// Wilson's upper end at 0 of n is z²/(n + z²): below 0.1 from n = 3.841459 x 9 =
// 34.57, so 35 trials; a scale already within the share needs none.
func TestZeroSeenTrialsByHand(t *testing.T) {
	if n := ZeroSeenTrials(1, 0.1); n != 35 {
		t.Errorf("scale 1, share 0.1: %d trials, want 35", n)
	}
	if hi := results.ProportionOf(0, 35).Hi; hi > 0.1 {
		t.Errorf("0 of 35: upper end %v above 0.1", hi)
	}
	if hi := results.ProportionOf(0, 34).Hi; hi <= 0.1 {
		t.Errorf("0 of 34: upper end %v already within 0.1", hi)
	}
	if n := ZeroSeenTrials(0.05, 0.1); n != 0 {
		t.Errorf("within the share already: %d", n)
	}
}

// 0 of 40: the Wilson upper end is z²/(40 + z²) = 3.841459/43.841459 = 0.087622, so
// at most 4 x 0.087622 = 0.350488 a year: said as a bound, never as zero.
func TestNothingSeenIsABoundNeverAZero(t *testing.T) {
	m := &Measured{P: results.ProportionOf(0, 40)}
	m.Year = PerYear(4, 1, m.P)
	adrtest.Near(t, "hi", m.Year.Hi, 0.350488)
	got := measuredText(m)
	if want := "0 of 40 judged (below 8.8% per fault), so at most 0.350 a year"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if strings.Contains(yearly(m.Year, false), "0 (") {
		t.Fatalf("a bare zero: %q", yearly(m.Year, false))
	}
}

func TestNoVerdictIsNoExpectation(t *testing.T) {
	if e := PerYear(4, 1, results.ProportionOf(0, 0)); e != (Expected{}) {
		t.Fatalf("0 judged trials gave %+v", e)
	}
}

func TestSumsAddTheEndsAndSkipZeroRates(t *testing.T) {
	a := &Measured{P: results.ProportionOf(1, 2), Year: Expected{1, 0.5, 2}}
	b := &Measured{P: results.ProportionOf(1, 2), Year: Expected{3, 1, 4}}
	es := []Exposure{
		{Kind: backend.FailoverFault, PerYear: 1, Mutex: a},
		{Kind: backend.ClientPauseFault, PerYear: 1, Mutex: b},
		{Kind: backend.RestartEmptyFault, PerYear: 0},        // not counted: 0 a year
		{Kind: backend.ClockJumpFault, PerYear: 2},           // counted but not measured
		{Kind: backend.FailoverFault, PerYear: 9, NA: "n/a"}, // cannot strike
	}
	sum, missing := Total(es, false)
	if sum != (Expected{4, 1.5, 6}) || len(missing) != 1 || missing[0] != backend.ClockJumpFault {
		t.Fatalf("sum %+v, missing %v", sum, missing)
	}
}
