package adr

import (
	"fmt"

	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/safety/results"
)

// Untraced lists every count a year the decision adds into an option's total, and
// every cost read through copies of the workload's keys, that does not trace to one of
// the three things a number may rest on: a rate of its own condition (one variant's
// judged trials, carried to the workload by a size model the lab does not contradict),
// a demonstration a supported claim on the same measure backs (each variant on its own
// trials), or a named model whose lab check holds (the key-copies model's included).
// Empty when every number is earned; the record's tests fail on anything else. Counted
// is how many numbers it traced.
func Untraced(d *Decision) (out []string, counted int) {
	for _, o := range d.Options {
		if o.Cost.Measured && o.Cost.Copies > 1 {
			counted++
			if !o.Cost.CopiesCheck.Holds() {
				out = append(out, fmt.Sprintf("%s's cost: %d copies of the workload's keys, the %s model unchecked (%s)",
					o.Name, o.Cost.Copies, KeyCopiesModel, o.Cost.CopiesCheck))
			}
		}
		data := d.Workload.Purpose == workload.Correctness || o.Kind == LockFree
		for _, e := range o.Faults {
			if e.NA != "" || e.PerYear == 0 || e.sizedAway() {
				continue
			}
			m := e.side(data)
			if m == nil || m.Uncounted != "" {
				continue // missing evidence: in no total
			}
			counted++
			if why := untraced(d.Inputs.Safety, e, m, o); why != "" {
				out = append(out, fmt.Sprintf("%s under %s (%s %v): %s", o.Name, e.Kind, m.Scenario, m.Variants, why))
			}
		}
	}
	return out, counted
}

// untraced says why one counted measurement traces to nothing; "" when it does.
func untraced(reports []*results.Report, e Exposure, m *Measured, o *Option) string {
	switch {
	case m.Modelled:
		return modelUntraced(e, m, o)
	case m.Demo != NotDemo:
		for _, v := range m.Variants {
			if r := results.DemonstrationBacked(reports, m.Scenario, v, m.By); r.Verdict == results.NotShown {
				return fmt.Sprintf("a demonstration whose claim on %s is not shown for %s (%s)", m.By, v, r.Why)
			}
		}
		return ""
	case len(m.Variants) != 1:
		return fmt.Sprintf("a rate pooled over %d variants, each its own condition", len(m.Variants))
	case e.Model == nil || e.Model.Unsized:
		return "a rate no size model carries to the workload"
	case e.Model.Contradicted != "":
		return "a rate whose size model the lab contradicted: " + e.Model.Contradicted
	}
	return ""
}

// modelUntraced says why a modelled measurement's model does not hold; "" when it does.
func modelUntraced(e Exposure, m *Measured, o *Option) string {
	switch m.ModelName {
	case "crash-failover":
		if e.Crash == nil {
			return "modelled by a crash-failover model the record does not have"
		}
		return e.Crash.Check.failure()
	case "Redlock restart":
		if e.Quorum == nil {
			return "modelled by a restart model the record does not have"
		}
		return e.Quorum.Check.failure(o.Probe)
	}
	return "modelled by " + m.ModelName + ", which has no lab check"
}
