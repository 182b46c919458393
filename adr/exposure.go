package adr

import (
	"fmt"
	"slices"

	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/results"
)

// Exposure is one fault kind's share of an option's expected violations per year.
type Exposure struct {
	Kind    backend.Fault
	PerYear float64 // faults a year, from the workload
	Held    float64 // share of them that strike while a lock is held (episodes)
	// LocksHeld is the expected locks held when one strikes (locks broken per fault,
	// each held lock breaking with the measured P); for a fault that grants for a window,
	// those held plus those taken in the window the lab measured (Window).
	LocksHeld float64
	// Window is how long a fault that grants for a while went on granting in the lab;
	// nil for a fault of one instant, or one whose window no trial measured.
	Window *GrantWindow
	// NA says why the fault cannot strike the option; empty when it can.
	NA string
	// Mutex is mutual exclusion lost (two holders); Data what reached the data;
	// Refused what a fence refused. Nil: not measured by the given results.
	Mutex, Data, Refused *Measured
	// MutexIn and DataIn are the scenarios that measure each side, given or not;
	// empty when no scenario of the suite measures it.
	MutexIn, DataIn string
	// Model carries the lab's probability to the workload's fault sizes; nil for
	// faults that are not sized.
	Model *SizeModel
	// Crash replaces the lab's P of a failover with no guard by the crash-failover
	// model at the workload's write rate; CrashWhy says why it could not (lab P kept).
	Crash    *CrashModel
	CrashWhy string
	// Quorum replaces the lab's forced restart of a Redlock node by the quorum model
	// at the workload's contention; QuorumWhy says why it could not (lab count kept).
	Quorum    *QuorumModel
	QuorumWhy string
	// Unchecked names the model the lab's check kept out of the figures (it failed, or
	// never ran): the measurement then is the lab's, not sized.
	Unchecked string
}

// Measured is a conditional probability read from safety variants, and what it makes
// a year.
type Measured struct {
	Scenario string
	Variants []string // names of the variants pooled
	// Each is every variant's own count ("wait1-delay-0ms 2 of 20"), for saying
	// conditions apart where no model carries them and their pool is no rate.
	Each []string
	By   results.Measure
	P    results.Proportion // judged trials where By was > 0, of those judged
	// Modelled says P was replaced by ModelName's probability (Year from ModelP).
	Modelled  bool
	ModelName string
	ModelP    Expected
	// Share is the size model's share of counted faults that break a hold, SizedBy
	// the model's name ("" and 1: the fault is not sized).
	Share   float64
	SizedBy string
	// Year is locks broken a year (what the budgets count); Episodes the faults a year
	// that break at least one.
	Year, Episodes Expected
	// Demo is set when the variants are forced interleavings: P is their count, and
	// Year follows from the mechanism, never from P's interval.
	Demo Demo
	// Uncounted says, when set, why the measurement counts as missing evidence, in no
	// total: "not sized: ..." when no model carries P to the workload (the lab's count at
	// the lab's conditions, notsized.go), "not backed: ..." when its variants are forced
	// interleavings that no supported claim on the same measure backs (demonstration.go).
	Uncounted string
}

// exposures computes every fault kind's exposure of option o.
func exposures(w *workload.Workload, reports []*results.Report, o *Option) []Exposure {
	var out []Exposure
	for _, k := range w.FaultKinds() {
		e := Exposure{Kind: k, PerYear: w.Faults.Rate(k).PerYear, Held: w.Occupancy.AnyHeld, LocksHeld: w.Occupancy.LocksHeld,
			Model: SizeModelFor(w, k, o)}
		if k == backend.RedeliveryFault { // one change a redelivery: no held lock multiplies it
			e.Held, e.LocksHeld = 1, 1
		}
		boundaryChecked(e.Model, w, k, reports)
		if e.NA = NotApplicable(k, o); e.NA != "" {
			out = append(out, e)
			continue
		}
		if p, ok := ProbeFor(k, o); ok {
			if len(p.Mutex) > 0 {
				e.MutexIn = p.Scenario
			}
			if k.GrantsForAWindow() {
				if e.Window = windowOf(w, reports, p.Scenario, p.Mutex); e.Window != nil {
					e.LocksHeld += e.Window.Granted
				}
			}
			switch {
			case p.Data == nil:
				e.DataIn = e.MutexIn
			case len(p.Data) > 0:
				e.DataIn = p.DataScenario()
			}
			e.Mutex = measure(reports, p.Scenario, p.Mutex, results.Violations, e)
			switch mechanismOf(k, o) {
			case backend.AsyncPromotion:
				e.Crash, e.CrashWhy = crashModel(w, reports)
				if e.Crash != nil { // only a model its lab check holds sizes
					if why := e.Crash.Check.failure(); why != "" {
						e.Crash, e.CrashWhy, e.Unchecked = nil, why, "crash-failover"
					}
				}
				if e.Mutex != nil && e.Crash != nil {
					e.Mutex.modelled(e, "crash-failover", e.Crash.P)
				}
			case backend.QuorumNodeLoss:
				e.Quorum, e.QuorumWhy = quorumModel(w, o.Probe, reports)
				unchecked := ""
				if e.Quorum != nil {
					unchecked = e.Quorum.Check.failure(o.Probe)
				}
				switch {
				case e.Mutex == nil || e.Quorum == nil:
				case unchecked != "":
					e.Quorum, e.QuorumWhy, e.Unchecked = nil, unchecked, "Redlock restart"
				case e.Mutex.Demo != Always: // the rule rests on the forced restart breaking every time
					e.Quorum, e.QuorumWhy = nil, fmt.Sprintf("%s's forced restart of a node of an exact quorum broke %d of %d "+
						"judged, not every one: the model's rule is not shown", e.Mutex.Scenario, e.Mutex.P.K, e.Mutex.P.N)
				default:
					e.Mutex.modelled(e, "Redlock restart", e.Quorum.P)
				}
			}
			switch {
			case p.Data == nil:
				e.Data = e.Mutex // an unfenced resource takes every holder's write
			case len(p.Data) > 0:
				by := p.DataBy
				if by == "" {
					by = results.Violations
				}
				e.Data = measure(reports, p.DataScenario(), p.Data, by, e)
			}
			if p.refused != "" {
				e.Refused = measure(reports, p.DataScenario(), p.Data, p.refused, e)
			}
			e.markNotSized(e.Mutex)
			e.markNotSized(e.Data)
		}
		out = append(out, e)
	}
	return out
}

// measure pools the judged trials of the matching variants; nil when none matched or
// none was judged (no verdict is not a measurement).
func measure(reports []*results.Report, scenario string, patterns []string, by results.Measure, e Exposure) *Measured {
	if len(patterns) == 0 {
		return nil
	}
	vs := results.Matching(reports, scenario, patterns)
	if len(vs) == 0 {
		return nil
	}
	// claims.go's own counting: judged trials where the measure was > 0.
	cc := results.WriteupClaim{Scenario: scenario}.Count(reports, patterns, by)
	if cc.N == 0 {
		return nil
	}
	m := &Measured{Scenario: scenario, By: by, P: cc.Proportion}
	for _, v := range vs {
		m.Variants = append(m.Variants, v.Name)
		broke := by
		if broke == "" {
			broke = v.Measure
		}
		m.Each = append(m.Each, fmt.Sprintf("%s %d of %d", v.Name, v.Tally.Broke[broke], v.Tally.Judged))
	}
	m.Share = e.share()
	if e.Model != nil {
		m.SizedBy = e.Model.Name
	}
	m.Year, m.Episodes = PerYear(e.PerYear*m.Share, e.LocksHeld, m.P), PerYear(e.PerYear*m.Share, e.Held, m.P)
	if Demonstrated(scenario, vs) {
		if why := unbacked(reports, scenario, vs, by); why != "" {
			m.Uncounted = why
		} else {
			m.demonstrate(demoOf(vs, by), e)
		}
	}
	return m
}

// Total adds up the expected per year of the faults that can strike, on one side
// (mutex or data); missing lists those with a rate above 0 not measured, or measured
// but not sized to the workload.
func Total(es []Exposure, data bool) (Expected, []backend.Fault) {
	var sum Expected
	var missing []backend.Fault
	for _, e := range es {
		if e.NA != "" || e.PerYear == 0 || e.sizedAway() {
			continue
		}
		m := e.side(data)
		if m == nil || m.Uncounted != "" {
			missing = append(missing, e.Kind)
			continue
		}
		sum = sum.Add(m.Year)
	}
	return sum, missing
}

// UnmeasuredBound is the worst the missing faults can add a year: each breaking every
// lock it finds held (P <= 1), rate x locks held; a fault that grants for a window
// also every lock taken in it, and has no bound while its window is not measured.
func UnmeasuredBound(es []Exposure, missing []backend.Fault) float64 {
	var sum float64
	for _, e := range es {
		if !slices.Contains(missing, e.Kind) || e.NA != "" {
			continue
		}
		if e.Kind.GrantsForAWindow() && !e.Window.bounded() {
			return noWindowBound
		}
		sum += e.PerYear * e.share() * e.LocksHeld
	}
	return sum
}

// sizedAway says the size model, unchallenged by the lab, finds no counted fault large
// enough to break a hold: nothing to measure on either side, 0 a year.
func (e Exposure) sizedAway() bool {
	return e.Model != nil && e.Model.Share == 0 && !e.Model.Unsized && e.Model.Contradicted == ""
}

// share is the size model's share of counted faults that can break a hold; 1 when
// the fault is not sized.
func (e Exposure) share() float64 {
	if e.Model == nil {
		return 1
	}
	return e.Model.Share
}

// modelled counts the measurement by a model's P(violation | fault while held)
// instead of its judged trials, which stay as the mechanism's demonstration.
func (m *Measured) modelled(e Exposure, name string, p Expected) {
	m.Modelled, m.ModelName, m.ModelP = true, name, p
	scale := func(x float64) Expected {
		return Expected{Central: x * p.Central, Lo: x * p.Lo, Hi: x * p.Hi}
	}
	m.Year, m.Episodes = scale(e.PerYear*e.LocksHeld), scale(e.PerYear*e.Held)
}
