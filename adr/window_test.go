package adr

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/adr/adrtest"
	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/results"
)

// plannedWithWindows is failover-loss's planned variant with one judged trial per
// window (ms), each having probed the old master; open marks one cut at its watch.
func plannedWithWindows(open bool, windows ...float64) []*results.Report {
	v := &results.Variant{Name: "planned-delay-0ms", Measure: results.LostLocks}
	for i, ms := range windows {
		in := map[string]float64{"probes": 100}
		if open && i == 0 {
			in["window_open_at_watch"] = 1
		}
		v.Add(results.Trial{N: i, Outcome: results.Judged, WindowMs: ms, Inputs: in,
			Counts: map[results.Measure]int{results.LostLocks: 0, results.SplitBrainWindow: 1}, Proof: []string{"by hand"}})
	}
	return adrtest.HandReport("failover-loss", v)
}

// A planned failover leaves the old primary granting: its locks at risk are those held
// plus those taken in the longest window measured, and its worst case counts them; with
// no window measured, or one cut at the watch, there is no worst case to count.
func TestAPlannedFailoverCountsTheLocksTakenInItsWindow(t *testing.T) {
	w := loadWorkload(t, "testdata/efficiency.yaml")
	sentinel := &Option{Name: "sentinel", Kind: Lock, Probe: "sentinel"}
	at := func(es []Exposure) Exposure {
		return es[slices.Index(workload.FaultKinds, backend.PlannedFailoverFault)]
	}

	e := at(exposures(w, plannedWithWindows(false, 9300, 8800, 9450), sentinel))
	if e.Window == nil || e.Window.Longest != 9450*time.Millisecond || e.Window.Trials != 3 || e.Window.Open {
		t.Fatalf("window %+v, want the longest of 3 judged trials, 9.45 s", e.Window)
	}
	granted := w.LockRate * 9.45
	if held := w.Occupancy.LocksHeld + granted; math.Abs(e.LocksHeld-held) > 1e-9 {
		t.Errorf("locks at risk %v, want %v held plus %v taken in the window", e.LocksHeld, w.Occupancy.LocksHeld, granted)
	}
	missing := []backend.Fault{backend.PlannedFailoverFault}
	if got, want := UnmeasuredBound([]Exposure{e}, missing), e.PerYear*e.LocksHeld; math.Abs(got-want) > 1e-9 {
		t.Errorf("at worst %v a year, want %v: every lock at risk broken", got, want)
	}
	if !strings.Contains(e.Window.text(w.Occupancy.LocksHeld), "for up to 9.45s (the longest window of 3") {
		t.Errorf("window text %q", e.Window.text(w.Occupancy.LocksHeld))
	}

	for name, reps := range map[string][]*results.Report{
		"not measured":       nil,
		"open at its watch":  plannedWithWindows(true, 20000),
		"probed in no trial": adrtest.HandReport("failover-loss", adrtest.HandVariant("planned-delay-0ms", results.LostLocks, 3, 0)),
	} {
		e := at(exposures(w, reps, sentinel))
		if b := UnmeasuredBound([]Exposure{e}, missing); !math.IsInf(b, 1) {
			t.Errorf("%s: at worst %v a year; want no bound", name, b)
		}
	}
	// A master's stall reads the zombie's windows, where the workload counts it.
	w.Faults.MasterStall = &workload.FaultRate{PerYear: 1, Source: "test"}
	zombie := &results.Variant{Name: "zombie", Measure: results.Violations}
	zombie.Add(results.Trial{Outcome: results.Judged, WindowMs: 10040, Inputs: map[string]float64{"probes": 500},
		Counts: map[results.Measure]int{results.Violations: 1}, Proof: []string{"by hand"}})
	stall := exposures(w, adrtest.HandReport("failover-loss", zombie), sentinel)[slices.Index(w.FaultKinds(),
		backend.MasterStallFault)]
	if stall.Kind != backend.MasterStallFault || stall.Window == nil || stall.Window.Longest != 10040*time.Millisecond ||
		stall.Mutex == nil || stall.Mutex.P.K != 1 {
		t.Errorf("a master's stall: %+v, want the zombie's window and its two holders", stall)
	}
	// A fault of one instant keeps its held locks only.
	crash := exposures(w, plannedWithWindows(false, 9300), sentinel)[slices.Index(workload.FaultKinds, backend.FailoverFault)]
	if crash.Window != nil || crash.LocksHeld != w.Occupancy.LocksHeld {
		t.Errorf("a crash failover counts a window: %+v", crash)
	}
}
