package adr

import (
	"fmt"
	"strings"

	"github.com/lockbench/lockbench/safety/results"
)

// Demo is what a forced interleaving showed: a mechanism, never a rate. The claims
// (safety/results) check such variants as always or never; their trial count repeats
// one code path, so it has no interval and is not a probability of the fault.
type Demo string

const (
	// NotDemo: the variants measure a rate (a drawn fault, counted with its interval).
	NotDemo Demo = ""
	// Always: the mechanism broke every judged trial: every held lock a counted fault
	// finds breaks.
	Always Demo = "always"
	// Never: the mechanism broke no judged trial: it does not break the lock.
	Never Demo = "never"
	// Mixed: a forced interleaving broke some trials and not others; its claim is
	// contradicted, so it is counted at its worst, never as a rate.
	Mixed Demo = "in some, not all"
)

// Demonstrated says whether every variant is one a claim checks as a forced
// interleaving (results.Demonstrated); a probe never mixes the two (a test keeps it so).
func Demonstrated(scenario string, vs []*results.Variant) bool {
	for _, v := range vs {
		if !results.Demonstrated(scenario, v.Name) {
			return false
		}
	}
	return len(vs) > 0
}

// demoOf reads the variants' demonstration on measure by, each variant apart: always
// only when each broke in every judged trial, never only when none broke in any.
func demoOf(vs []*results.Variant, by results.Measure) Demo {
	every, none := true, true
	for _, v := range vs {
		k, n := v.Tally.Broke[by], v.Tally.Judged
		if n == 0 {
			continue
		}
		every = every && k == n
		none = none && k == 0
	}
	switch {
	case every:
		return Always
	case none:
		return Never
	}
	return Mixed
}

// demonstrate counts the measurement as its mechanism: always breaks every held lock a
// counted (and, with a size model, large enough) fault finds, with no interval; never
// breaks none; a mixed one counts at its worst, with 0 as its lower end.
func (m *Measured) demonstrate(d Demo, e Exposure) {
	m.Demo = d
	locks, episodes := e.PerYear*m.Share*e.LocksHeld, e.PerYear*m.Share*e.Held
	switch d {
	case Always:
		m.Year, m.Episodes = Expected{locks, locks, locks}, Expected{episodes, episodes, episodes}
	case Never:
		m.Year, m.Episodes = Expected{}, Expected{}
	case Mixed:
		m.Year, m.Episodes = Expected{Central: locks, Hi: locks}, Expected{Central: episodes, Hi: episodes}
	}
}

// demoText says a demonstration and what it makes a year, in one phrase.
func demoText(m *Measured) string {
	sized := ""
	if m.SizedBy != "" && m.Share < 1 {
		sized = fmt.Sprintf(", x %s of the counted faults large enough to break a hold (%s)", percent(m.Share), m.SizedBy)
	}
	every := "every held lock a counted fault finds breaks"
	if m.By == results.Duplicates { // a redelivery is one change, held lock or none
		every = "every counted redelivery applies its change twice"
	}
	switch m.Demo {
	case Always:
		return fmt.Sprintf("%d of %d judged, a forced interleaving: the mechanism breaks it always (not a rate), so %s%s: %s",
			m.P.K, m.P.N, every, sized, yearly(m.Year, true))
	case Never:
		return fmt.Sprintf(
			"0 of %d judged, a forced interleaving: the mechanism never breaks it (not a rate): 0 a year", m.P.N)
	}
	return fmt.Sprintf("%d of %d judged, a forced interleaving that is neither always nor never (its claim is "+
		"contradicted, and no rate is drawn from it), so counted at its worst%s: %s",
		m.P.K, m.P.N, sized, yearly(m.Year, false))
}

// unbacked says why the forced interleavings vs do not stand for their mechanism on
// measure by: a count of one is a demonstration only where a claim on the same measure
// checks the variant on its own trials; "" when each one's is supported, or
// contradicted (a judged counter-example proves the mechanism can break: it is counted
// at its worst, demoOf's Mixed).
func unbacked(reports []*results.Report, scenario string, vs []*results.Variant, by results.Measure) string {
	var why []string
	for _, v := range vs {
		r := results.DemonstrationBacked(reports, scenario, v.Name, by)
		if r.Verdict == results.NotShown {
			why = append(why, fmt.Sprintf("%s %s (%s)", v.Name, r.Verdict, r.Why))
		}
	}
	if len(why) == 0 {
		return ""
	}
	return fmt.Sprintf("not backed: a forced interleaving whose claim on %s is not shown: %s; "+
		"`lockbench safety --scenario %s` with at least %d trials a variant would back it",
		by, strings.Join(why, "; "), scenario, results.MinJudged)
}
