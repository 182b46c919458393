package adr

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/results"
)

// GrantWindow is how long a fault that grants for a window (backend.Fault's
// GrantsForAWindow) went on granting in the lab: the old server's last accepted write
// after the fault, as its scenario probes it.
type GrantWindow struct {
	Scenario string
	Longest  time.Duration // the longest of the judged trials' windows
	Trials   int           // judged trials that measured a window
	// Open: a window outlasted the scenario's watch, so Longest is a lower bound.
	Open bool
	// Granted is the workload's locks taken within Longest (rate x Longest): each may
	// be granted on both sides.
	Granted float64
}

// windowOf reads the longest window of the matching variants' judged trials; nil when
// none measured one.
func windowOf(w *workload.Workload, reports []*results.Report, scenario string, patterns []string) *GrantWindow {
	var g GrantWindow
	for _, v := range results.Matching(reports, scenario, patterns) {
		for _, tr := range v.Trials {
			if tr.Outcome != results.Judged || tr.Inputs["probes"] == 0 {
				continue
			}
			g.Trials++
			g.Longest = max(g.Longest, time.Duration(tr.WindowMs*float64(time.Millisecond)))
			g.Open = g.Open || tr.Inputs["window_open_at_watch"] > 0
		}
	}
	if g.Trials == 0 {
		return nil
	}
	g.Scenario, g.Granted = scenario, w.LockRate*g.Longest.Seconds()
	return &g
}

// bounded says the window bounds the locks at risk: measured, and closed within its
// watch.
func (g *GrantWindow) bounded() bool { return g != nil && !g.Open }

// text is the window for the record: how long, from how many trials, what it adds.
func (g *GrantWindow) text(heldAtOnce float64) string {
	at := "for up to"
	if g.Open {
		at = "for at least"
	}
	return fmt.Sprintf("the old primary went on granting %s %s (the longest window of %d judged trials in %s): "+
		"%s locks at risk per fault, the %s held when it strikes and the %s taken in the window", at,
		g.Longest.Round(time.Millisecond), g.Trials, g.Scenario, count(heldAtOnce+g.Granted), count(heldAtOnce),
		count(g.Granted))
}

// noWindowBound is the bound of a window fault whose window is not measured, or not
// closed: none, for every lock taken while it lasts may be granted twice.
var noWindowBound = math.Inf(1)

// unboundedWindows are the missing faults that grant for a window with none measured
// (or one still open at its watch).
func unboundedWindows(es []Exposure, missing []backend.Fault) []string {
	var out []string
	for _, e := range es {
		if slices.Contains(missing, e.Kind) && e.NA == "" && e.Kind.GrantsForAWindow() && !e.Window.bounded() {
			out = append(out, fmt.Sprint(e.Kind))
		}
	}
	return out
}
