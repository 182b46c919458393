package plan

import (
	"fmt"
	"strings"
	"time"
)

// Text is the plan as `lockbench adr --plan` prints it: each step with its command and
// estimated time (and where the estimate comes from), then what the results cover.
func (p *Plan) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Plan for the ADR of %s\n\n", p.Workload)
	runnable := 0
	for _, s := range p.Steps {
		if s.Command != "" {
			runnable++
		}
	}
	fmt.Fprintf(&b, "Steps to run (%d):\n\n", runnable)
	i := 0
	for _, s := range p.Steps {
		if s.Command == "" {
			continue
		}
		i++
		fmt.Fprintf(&b, "%d. %s\n   for: %s\n   %s\n", i, s.What, s.Why, s.Command)
		if s.EstimateFrom == "" {
			b.WriteString(
				"   estimated: unknown (no per-trial time measured for it: run it once with --trials 1 to time it)\n\n")
			continue
		}
		fmt.Fprintf(&b, "   estimated: %s (%s)\n\n", roundEstimate(s.Estimate), s.EstimateFrom)
	}
	total, unknown := p.Total()
	fmt.Fprintf(&b, "Estimated in all: %s", roundEstimate(total))
	if unknown > 0 {
		fmt.Fprintf(&b, ", plus %d step(s) with no measured time", unknown)
	}
	b.WriteString(" (on a 2-core machine; a loaded one takes longer)\n")
	var not []Step
	for _, s := range p.Steps {
		if s.Command == "" {
			not = append(not, s)
		}
	}
	if len(not) > 0 {
		b.WriteString("\nNeeded, but no lockbench command measures it yet:\n\n")
		for _, s := range not {
			fmt.Fprintf(&b, "* %s (for %s): %s\n", s.What, s.Why, s.NotYet)
		}
	}
	if len(p.Skipped) > 0 {
		b.WriteString("\nNot run, as no result of it could change the decision:\n\n")
		for _, s := range p.Skipped {
			fmt.Fprintf(&b, "* %s\n", s)
		}
	}
	if len(p.Have) > 0 {
		b.WriteString("\nAlready in the given results:\n\n")
		for _, h := range p.Have {
			fmt.Fprintf(&b, "* %s\n", h)
		}
	}
	return b.String()
}

// roundEstimate keeps an estimate to what it can say: seconds below ten minutes, then
// minutes.
func roundEstimate(d time.Duration) string {
	if d < 10*time.Minute {
		return d.Round(time.Second).String()
	}
	return d.Round(time.Minute).String()
}
