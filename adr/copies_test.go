package adr

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/stats"
)

// nightly is a workload too slow to time at its own rate: 0.1 locks/s over 10 keys
// by zipf:1, each held 5 s under a 60 s TTL.
func nightly(t *testing.T) *workload.Workload {
	w := loadWorkload(t, "testdata/correctness.yaml")
	w.LockRate, w.HoldD, w.TTLD = 0.1, 5*time.Second, time.Minute
	w.Keys = workload.Keys{Count: 10, Distribution: workload.Zipf, ZipfExponent: 1}
	return w
}

// copiesCell is an open-loop cell of strategy s at copies x the nightly rate over
// copies x its keys, whose acquire p99 lies in [low, high] (high 0: unbounded).
func copiesCell(s string, copies int, keyDist string, p99, low, high time.Duration) *resultsdir.Cell {
	sum := resultsdir.Summary{Count: 1000, P50: resultsdir.Duration(p99 / 10), P99: resultsdir.Duration(p99),
		P999: resultsdir.Duration(p99 * 2), P99Low: resultsdir.Duration(low), P99High: resultsdir.Duration(high)}
	return &resultsdir.Cell{Name: fmt.Sprintf("%s/keys=%d/key-dist=%s/p99=%v", s, 10*copies, keyDist, p99), Strategy: s, Clients: 64, Keys: 10 * copies, KeyDist: keyDist,
		Hold: resultsdir.Duration(5 * time.Second), TTL: resultsdir.Duration(time.Minute),
		Network: resultsdir.Network{Profile: "none"}, CyclesPerSecond: 0.1 * float64(copies),
		Load: resultsdir.LoadMode{Mode: "open", Arrival: "poisson", TargetRate: 0.1 * float64(copies),
			AchievedRate: 0.1 * float64(copies)},
		Latency: map[string]resultsdir.Summary{resultsdir.MetricAcquire: sum}}
}

func TestCopiesOfReadsACellAsTheWorkload(t *testing.T) {
	w := nightly(t)
	for _, c := range []struct {
		cell *resultsdir.Cell
		want int
	}{
		{copiesCell("single", 100, "zipf:1x100", time.Second, 0, 0), 100},
		{copiesCell("single", 1, "zipf:1", time.Second, 0, 0), 1},
		{copiesCell("single", 100, "zipf:0.8x100", time.Second, 0, 0), 0}, // another popularity
		{copiesCell("single", 100, "uniform", time.Second, 0, 0), 0},      // the workload's keys are zipf
	} {
		if got := CopiesOf(w, stats.ConditionOf(c.cell)); got != c.want {
			t.Errorf("%s over %d keys: %d copies, want %d", c.cell.KeyDist, c.cell.Keys, got, c.want)
		}
	}
	spread := copiesCell("single", 100, "zipf:1x100", time.Second, 0, 0)
	spread.HoldDist = "exp" // the workload's holds are constant
	if got := CopiesOf(w, stats.ConditionOf(spread)); got != 0 {
		t.Errorf("a cell of exponential holds reads as %d copies of constant ones", got)
	}
	off := copiesCell("single", 100, "zipf:1x100", time.Second, 0, 0)
	off.Load.TargetRate = 20 // 0.2/s a copy: not the workload's rate
	if got := CopiesOf(w, stats.ConditionOf(off)); got != 0 {
		t.Errorf("a cell at twice the rate a copy reads as %d copies", got)
	}
	one := nightly(t)
	one.Keys = workload.Keys{Count: 1, Distribution: workload.Uniform}
	u := copiesCell("single", 50, "uniform", time.Second, 0, 0)
	u.Keys = 50
	if got := CopiesOf(one, stats.ConditionOf(u)); got != 50 {
		t.Errorf("50 uniform keys at 5/s for one key at 0.1/s: %d copies, want 50", got)
	}
}

// The cost is read through copies only when the strategy ran at two copy counts whose
// p99 intervals overlap; disjoint intervals or a single count leave it unmeasured, and
// the record's trace accepts only the checked one.
func TestCostThroughCopiesNeedsItsCheck(t *testing.T) {
	w := nightly(t)
	cost := func(cells ...*resultsdir.Cell) Cost {
		run := &resultsdir.Run{}
		for _, c := range cells {
			run.Cells = append(run.Cells, *c)
		}
		return costOf(w, run, stats.Groups(linked.Catalog(), run), "single", false)
	}
	at100 := copiesCell("single", 100, "zipf:1x100", 9*time.Second, 8*time.Second, 10*time.Second)
	agree := copiesCell("single", 200, "zipf:1x200", 9500*time.Millisecond, 9*time.Second, 11*time.Second)
	apart := copiesCell("single", 200, "zipf:1x200", 15*time.Second, 13*time.Second, 17*time.Second)
	open := copiesCell("single", 200, "zipf:1x200", 9*time.Second, 8*time.Second, 0)

	c := cost(at100, agree)
	if !c.Measured || c.Copies == 0 || c.AtBudget != 9*time.Second && c.AtBudget != 9500*time.Millisecond ||
		!strings.Contains(c.How, "key copies model") || !strings.Contains(c.How, "the intervals overlap") {
		t.Fatalf("checked copies: %+v", c)
	}
	if cell := capacityCell(c); !strings.Contains(cell, "through") || !strings.Contains(cell, "copies of its keys") {
		t.Errorf("the capacity column of a copies cost reads %q", cell)
	}
	d := &Decision{Workload: w, Options: []*Option{{Name: "single", Cost: c}}}
	if out, counted := Untraced(d); len(out) != 0 || counted != 1 {
		t.Errorf("a checked copies cost: untraced %v (%d counted)", out, counted)
	}
	d.Options[0].Cost.CopiesCheck = nil
	if out, _ := Untraced(d); len(out) != 1 {
		t.Errorf("a copies cost without its check passed the trace")
	}
	for name, cells := range map[string][]*resultsdir.Cell{
		"disjoint":  {at100, apart},
		"one count": {at100},
		"unbounded": {at100, open},
	} {
		c := cost(cells...)
		if c.Measured || !strings.Contains(c.Why, "not checked") {
			t.Errorf("%s: measured %v, why %q", name, c.Measured, c.Why)
		}
	}
	if c := cost(at100, apart); !strings.Contains(c.Why, "do not overlap") {
		t.Errorf("disjoint intervals: %q does not say so", c.Why)
	}
}

// A lock-free way timed by one open-loop update cell at the workload's rate is priced
// there and kept within by its own p99: no rates are swept for a capacity.
func TestALockFreeWayIsPricedAtTheWorkloadsRate(t *testing.T) {
	w := loadWorkload(t, "testdata/correctness.yaml")
	cell := resultsdir.Cell{Name: "atomic/open", Strategy: "cas-version", Clients: 12, Keys: 10, Workload: "update",
		Network: resultsdir.Network{Profile: "none"}, CyclesPerSecond: w.LockRate,
		Load: resultsdir.LoadMode{Mode: "open", Arrival: "poisson", TargetRate: w.LockRate, AchievedRate: w.LockRate},
		Latency: map[string]resultsdir.Summary{resultsdir.MetricUpdate: {Count: 1000,
			P50: resultsdir.Duration(time.Millisecond), P99: resultsdir.Duration(w.SLO.Budget / 2),
			P999: resultsdir.Duration(w.SLO.Budget)}}}
	run := &resultsdir.Run{Cells: []resultsdir.Cell{cell}}
	c := costOf(w, run, stats.Groups(linked.Catalog(), run), "cas-version", true)
	if !c.Measured || !c.Within || c.AtBudget != w.SLO.Budget/2 || !strings.HasPrefix(c.How, "open loop") {
		t.Fatalf("priced %+v", c)
	}
	if cell := capacityCell(c); !strings.Contains(cell, "timed at the workload's rate") || !strings.Contains(cell, "within") {
		t.Errorf("capacity column %q", cell)
	}
}
