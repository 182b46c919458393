// Package adr turns lockbench results into a draft architecture decision record (MADR
// 4.0): the team's workload and fault rates (adr/workload), the measured costs of each
// option and the expected violations per year computed from the safety results. It
// computes and formats; it never measures.
package adr

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/stats"
)

// Verdict says whether an option meets the workload's purpose and budget.
type Verdict struct {
	Meets bool
	// Why it does not, in words; Missing lists the measurements that would decide it.
	Why     []string
	Missing []string
	// RuledOut: a measurement (not a missing one) fails it: for a rate, the lower end
	// of its interval over the budget; an interval that straddles it is not yet.
	// RuledBy are the reasons of Why that rule it out.
	RuledOut bool
	RuledBy  []string
	// Unmeasured is what the unmeasured faults add to an efficiency option's upper
	// end at their worst (every such fault breaking the lock).
	Unmeasured float64
	Year       Expected // the side the purpose counts: duplicates (mutex) or data
}

// Decision is the whole computation: every option, judged, and the one chosen.
type Decision struct {
	Workload *workload.Workload
	Inputs   *Inputs
	Options  []*Option
	Chosen   *Option // nil: no option is shown to meet the purpose
	// Floor is the wait for held keys no lock can beat, against the latency budget;
	// nil with FloorWhy when it could not be computed (or the budget is on the max).
	Floor    *QueueFloor
	FloorWhy string
}

// Decide prices and judges every option and picks the cheapest that meets the purpose:
// fewest servers, then the lowest budget percentile at the workload's rate.
func Decide(w *workload.Workload, in *Inputs) *Decision {
	run := in.merged()
	groups := stats.Groups(linked.Catalog(), run)
	d := &Decision{Workload: w, Inputs: in, Options: candidatesOnly(w, Options(in))}
	var err error
	if d.Floor, err = queueFloorOf(w); err != nil {
		d.FloorWhy = err.Error()
	}
	if d.Floor.Misses() {
		d.Options = append(d.Options, unmeasuredLocks(w, d.Options)...)
	}
	for _, o := range d.Options {
		o.Cost = costOf(w, run, groups, o.Strategy, o.Kind == LockFree)
		o.Cost.NoLockService = o.Kind == LockFree
		if d.Floor.Misses() && o.Kind != LockFree {
			o.beyondFloor = d.Floor.floorWhy(w)
		}
		o.Faults = exposures(w, in.Safety, o)
		o.Verdict = judge(w, o)
	}
	var meets []*Option
	for _, o := range d.Options {
		if o.Verdict.Meets {
			meets = append(meets, o)
		}
	}
	sort.SliceStable(meets, func(i, j int) bool { return cheaper(meets[i], meets[j]) })
	if len(meets) > 0 {
		d.Chosen = meets[0]
	}
	return d
}

// cheaper orders by servers (unknown last), then the budget percentile.
func cheaper(a, b *Option) bool {
	rank := func(c Cost) int {
		switch {
		case c.NoLockService:
			return 0 // only the store every option writes to
		case c.Servers == 0:
			return 1 << 30 // unknown: last
		}
		return c.Servers
	}
	sa, sb := rank(a.Cost), rank(b.Cost)
	if sa != sb {
		return sa < sb
	}
	return a.Cost.AtBudget < b.Cost.AtBudget
}

// judge applies the purpose's rule: efficiency counts duplicates (two holders) against
// the team's budget; correctness needs a fence or a store-side guard and no violation
// reaching the data in any judged trial of every fault that can strike.
func judge(w *workload.Workload, o *Option) Verdict {
	if o.beyondFloor != "" { // the floor alone decides: no measurement of it can change that
		return Verdict{Why: []string{o.beyondFloor}, RuledBy: []string{o.beyondFloor}, RuledOut: true}
	}
	var v Verdict
	dataSide := w.Purpose == workload.Correctness
	if !dataSide && o.Kind == LockFree {
		v.rule("no lock: for efficiency the lock is what saves the duplicate work")
	}
	if dataSide && o.Kind == Lock {
		v.rule("a lock alone (a correctness lock needs a fence the resource checks, or no lock and a store-side guard)")
	}
	total, missing := Total(o.Faults, dataSide || o.Kind == LockFree)
	for _, k := range missing {
		v.Missing = append(v.Missing, missingText(o, k, dataSide || o.Kind == LockFree))
	}
	if dataSide {
		// Correctness needs the upper end within the budget: an unmeasured fault cannot be bounded.
		if len(missing) > 0 {
			what := "not measured: "
			if _, unsized := splitMissing(o.Faults, missing, true); unsized > 0 {
				what = "missing evidence (not measured, or not sized to the workload): "
			}
			v.Why = append(v.Why, what+strings.Join(v.Missing, ", "))
		}
		if total.Lo > *w.ViolationBudget {
			v.rule(fmt.Sprintf("at least %s violations reaching the data a year, over the budget of %s", count(total.Lo),
				Plain(*w.ViolationBudget)))
		} else if total.Hi > *w.ViolationBudget {
			v.Why = append(v.Why,
				fmt.Sprintf("up to %s violations reaching the data a year, over the budget of %s: %s", count(total.Hi),
					Plain(*w.ViolationBudget), trialsNeeded(o.Faults, *w.ViolationBudget)))
		}
	} else if o.Kind != LockFree {
		// Efficiency needs only an upper end: an unmeasured fault counts at its worst,
		// P(violation | fault) <= 1, so it adds its rate x the held share to the end.
		// The rule is correctness's: a measured lower end over the budget rules it out;
		// an interval that straddles it waits for trials, as one over it only with the
		// missing faults (not measured, or not sized) at their worst waits for them.
		v.Unmeasured = UnmeasuredBound(o.Faults, missing)
		switch {
		case total.Lo > *w.DuplicateBudget:
			v.rule(fmt.Sprintf("at least %s duplicate runs a year, over the budget of %s", count(total.Lo),
				Plain(*w.DuplicateBudget)))
		case math.IsInf(v.Unmeasured, 1):
			v.Why = append(v.Why, fmt.Sprintf("no bound on the duplicate runs a year: %s grants for as long as the "+
				"old primary goes on taking writes, a window not measured, and every lock taken in it may be granted "+
				"twice; missing: %s", strings.Join(unboundedWindows(o.Faults, missing), ", "),
				strings.Join(v.Missing, ", ")))
		case total.Hi > *w.DuplicateBudget:
			v.Why = append(v.Why, fmt.Sprintf("up to %s duplicate runs a year (at least %s), over the budget of %s: "+
				"more trials narrow it", count(total.Hi+v.Unmeasured), count(total.Lo), Plain(*w.DuplicateBudget)))
		case total.Hi+v.Unmeasured > *w.DuplicateBudget:
			v.Why = append(v.Why, fmt.Sprintf(
				"up to %s duplicate runs a year counting the missing faults at their worst, over the budget of %s: %s",
				count(total.Hi+v.Unmeasured), Plain(*w.DuplicateBudget), strings.Join(v.Missing, ", ")))
		}
		total.Hi += v.Unmeasured
	}
	v.Year = total
	switch {
	case !o.Cost.Measured:
		v.Why = append(v.Why, "cost not measured: "+o.Cost.Why)
	case !o.Cost.Within:
		v.rule(fmt.Sprintf("not shown within %s at %s/s%s", w.SLO, stats.FormatRate(w.LockRate), queueWords(w, o.Cost)))
	}
	v.Meets = len(v.Why) == 0
	return v
}

// rule gives a reason that rules the option out.
func (v *Verdict) rule(why string) {
	v.Why, v.RuledBy, v.RuledOut = append(v.Why, why), append(v.RuledBy, why), true
}

// variantsOf names the variants behind a measurement, for the ADR's trace.
func variantsOf(m *Measured) string {
	if m == nil {
		return ""
	}
	return fmt.Sprintf("`%s` %s", m.Scenario, strings.Join(m.Variants, ", "))
}

// missingText names a missing measurement and the scenario that would give it.
func missingText(o *Option, k backend.Fault, data bool) string {
	for _, e := range o.Faults {
		if e.Kind != k {
			continue
		}
		in := e.MutexIn
		if data {
			in = e.DataIn
		}
		if m := e.side(data); m != nil && m.Uncounted != "" {
			return fmt.Sprintf("%s (%s)", k, m.Uncounted)
		}
		if in == "" {
			return fmt.Sprintf("%s (no lockbench scenario measures it for %s)", k, o.Name)
		}
		return fmt.Sprintf("%s (not in the given results: `lockbench safety --scenario %s` for it)", k, in)
	}
	return string(k)
}

// queueWords says when the budget is broken by waiting for the holder rather than by
// the lock service: one attempt keeps the budget, the acquire (attempts and the wait)
// does not, on a key held the busiest share of the time.
func queueWords(w *workload.Workload, c Cost) string {
	if c.AttemptAtBudget <= 0 || c.AttemptAtBudget > w.SLO.Budget || c.AtBudget <= w.SLO.Budget {
		return ""
	}
	return fmt.Sprintf(
		" (acquire %s %s, one attempt %s: the wait for the holder of a key held %s of the time, not the lock service)",
		w.SLO.Percentile, stats.FormatDuration(c.AtBudget), stats.FormatDuration(c.AttemptAtBudget),
		percent(w.Occupancy.Busiest))
}
