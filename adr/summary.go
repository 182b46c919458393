package adr

import (
	"fmt"
	"strings"

	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/stats"
)

// budgetText is the budget a year the purpose counts against, as the record says it.
func budgetText(w *workload.Workload) string {
	if w.Purpose == workload.Correctness {
		return Plain(*w.ViolationBudget)
	}
	return Plain(*w.DuplicateBudget)
}

// summaryOf is the record's first screen: the decision, the numbers that decide it,
// and why not each other option, options with one reason said together.
func summaryOf(d *Decision) []string {
	w := d.Workload
	var lines []string
	switch o := d.Chosen; {
	case o != nil:
		budget, counted := budgetText(w), "locks broken (duplicate work)"
		if w.Purpose == workload.Correctness {
			counted = "violations reaching the data"
		}
		// The cell's own conditions, not the workload's rate: a closed loop's cost is not one.
		lines = append(lines, fmt.Sprintf("**Decision: %s** (%s): %s %s (%s), %s of %s against a budget of %s a year.",
			o.Name, serversText(o.Cost), w.SLO.Percentile, stats.FormatDuration(o.Cost.AtBudget), o.Cost.How,
			yearly(o.Verdict.Year, anySeen(o.Faults, side(w, o))), counted, budget))
	case d.Floor.Misses():
		lines = append(lines, fmt.Sprintf("**Decision: none. No lock can meet %s within %s at %s/s**: at the queueing "+
			"floor %s of requests wait longer for a held key (its %s: %s). What would: %s.", w.SLO.Percentile,
			stats.FormatDuration(w.SLO.Budget), stats.FormatRate(w.LockRate), shareText(d.Floor.Exceed), d.Floor.Percentile,
			d.Floor.Wait, d.Floor.whatWould(w)))
	default:
		lines = append(lines, "**Decision: none yet**: no option is shown, by the given results, to meet the purpose "+
			"within the budget (Decision Outcome says what stands in the way).")
	}
	return append(lines, whyNot(d)...)
}

// whyNot says why each option but the chosen one is not it, grouping options that
// share their reasons; options only not yet shown are left to the outcome.
func whyNot(d *Decision) []string {
	var order []string
	named := map[string][]string{}
	for _, o := range d.Options {
		if o == d.Chosen || !o.Verdict.RuledOut {
			continue
		}
		why := strings.Join(shortReasons(o, o.Verdict.RuledBy), "; ")
		if _, ok := named[why]; !ok {
			order = append(order, why)
		}
		named[why] = append(named[why], o.Name)
	}
	var out []string
	for _, why := range order {
		names := named[why]
		who := strings.Join(names, ", ")
		if len(names) > 3 {
			who = fmt.Sprintf("%d options (%s)", len(names), who)
		}
		out = append(out, fmt.Sprintf("Not %s: %s.", who, why))
	}
	return out
}
