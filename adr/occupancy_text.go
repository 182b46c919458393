package adr

import (
	"fmt"
	"strings"

	"github.com/lockbench/lockbench/adr/workload"
)

// writeOccupancy states the mutex model the counts a year rest on, with its numbers.
func writeOccupancy(b *strings.Builder, w *workload.Workload) {
	o := w.Occupancy
	spread := "one global lock"
	if w.Keys.Count > 1 {
		spread = fmt.Sprintf("%d keys, chosen %s", w.Keys.Count, w.Keys.Distribution)
		if w.Keys.Distribution == workload.Zipf {
			spread += fmt.Sprintf(" (exponent %s)", Plain(w.Keys.ZipfExponent))
		}
	}
	fmt.Fprintf(b, "* Locks: %s, each a mutex: its holds cannot overlap, so the busiest key is held %s of the time "+
		"(%.4g locks/s x %s).\n",
		spread, percent(o.Busiest), o.BusiestRate, w.HoldD)
	fmt.Fprintf(b, "* A fault finds at least one lock held %s of the time (1 - the product over keys of 1 - each key's "+
		"held share, keys independent) and %.3g locks held on average (rate x hold): the first turns faults into episodes, "+
		"the second into locks broken, each held lock breaking with the measured probability (for a client pause, an upper "+
		"bound: the paused process must be the holder).\n",
		percent(o.AnyHeld), o.LocksHeld)
}

// writeSizeModels states each size model the options use, once, with its numbers.
func writeSizeModels(b *strings.Builder, d *Decision) {
	seen := map[string]bool{}
	for _, o := range weighed(d) {
		for _, e := range o.Faults {
			if e.Model == nil || e.NA != "" || seen[e.Model.Name] {
				continue
			}
			seen[e.Model.Name] = true
			fmt.Fprintf(b, "* Size model for %s, %s.\n", e.Kind, e.Model.Line())
		}
	}
	for _, o := range weighed(d) {
		for _, e := range o.Faults {
			switch {
			case e.Crash != nil && !seen["crash"]:
				fmt.Fprintf(b, "* Model for failover (%s), %s.\n", o.Name, e.Crash.Line())
			case e.CrashWhy != "" && !seen["crash"]:
				fmt.Fprintf(b, "* Failover is not modelled (%s): its probability is the lab's, at the lab's replica pauses and "+
					"kill delays, not the workload's lag.\n", e.CrashWhy)
			default:
				continue
			}
			seen["crash"] = true
		}
	}
	writeQuorumModels(b, d, seen)
}

// writeQuorumModels states the Redlock restart model of each strategy the options
// probe, once (its shares are the strategy's own).
func writeQuorumModels(b *strings.Builder, d *Decision, seen map[string]bool) {
	for _, o := range weighed(d) {
		for _, e := range o.Faults {
			key := "quorum/" + o.Probe
			switch {
			case seen[key]:
				continue
			case e.Quorum != nil:
				fmt.Fprintf(b, "* Model for %s (%s), %s.\n", e.Kind, o.Probe, e.Quorum.Line())
			case e.QuorumWhy != "":
				fmt.Fprintf(b,
					"* %s is not modelled for %s (%s): its count is the lab's forced restart, not the workload's contention.\n",
					e.Kind, o.Probe, e.QuorumWhy)
			default:
				continue
			}
			seen[key] = true
		}
	}
}

// weighed are the options whose faults the record weighs: those the queueing floor does
// not rule out, whose models and sizes are then the ones worth stating.
func weighed(d *Decision) []*Option {
	var out []*Option
	for _, o := range d.Options {
		if o.beyondFloor == "" {
			out = append(out, o)
		}
	}
	return out
}
