package adr

import (
	"math"
	"time"

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

// HeldShare is the chance at least one lock is held when a fault strikes at a random
// moment: with Poisson arrivals at rate and holds of mean hold, the locks held are
// Poisson distributed with mean rate x hold (M/G/∞), so 1 - exp(-rate x hold).
func HeldShare(rate float64, hold time.Duration) float64 {
	return 1 - math.Exp(-rate*hold.Seconds())
}

// PerYear is faults a year x the share of them that find a lock held x P(violation |
// fault while held), measured as k of n judged trials with its Wilson interval.
func PerYear(faultsPerYear, heldShare float64, p results.Proportion) Expected {
	if p.N == 0 {
		return Expected{}
	}
	scale := faultsPerYear * heldShare
	return Expected{Central: scale * float64(p.K) / float64(p.N), Lo: scale * p.Lo, Hi: scale * p.Hi}
}
