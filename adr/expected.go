package adr

import (
	"github.com/lockbench/lockbench/safety/results"
)

// Expected is a count per year: a central value and its interval.
type Expected struct {
	Central, Lo, Hi float64
}

// Add sums two expectations; the interval ends add up too, which is conservative:
// both faults at their worst at once.
func (e Expected) Add(o Expected) Expected {
	return Expected{e.Central + o.Central, e.Lo + o.Lo, e.Hi + o.Hi}
}

// PerYear is faults a year x what each finds held (a share, for episodes; a count of
// locks, for locks broken) x P(violation | fault while held), measured as k of n judged
// trials with its Wilson interval.
func PerYear(faultsPerYear, heldShare float64, p results.Proportion) Expected {
	if p.N == 0 {
		return Expected{}
	}
	scale := faultsPerYear * heldShare
	return Expected{Central: scale * p.Share(), Lo: scale * p.Lo, Hi: scale * p.Hi}
}
