package ttl

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// holdDistribution is how long a holder works under its lock, drawn per trial. Every
// distribution of one run has the same mean, so that the curves differ by their tails.
type holdDistribution struct {
	name     string
	describe string
	draw     func(r *rand.Rand) time.Duration
	// floor is the shortest hold it can draw (constant: the hold; Pareto: its minimum).
	floor time.Duration
}

var holdDistributionNames = []string{"constant", "exponential", "lognormal", "pareto"}

// holdDistributions builds the named distributions of mean hold; draws are capped at
// most so that a long-tailed draw cannot stall a run.
func holdDistributions(names []string, mean time.Duration, sigma, alpha float64,
	most time.Duration) []holdDistribution {
	m := float64(mean)
	capped := func(x float64) time.Duration { return min(time.Duration(x), most) }
	var out []holdDistribution
	for _, name := range names {
		switch name {
		case "constant":
			out = append(out, holdDistribution{name: name, floor: mean, describe: fmt.Sprintf("every hold %v", mean),
				draw: func(*rand.Rand) time.Duration { return capped(m) }})
		case "exponential":
			out = append(out, holdDistribution{name: name, describe: fmt.Sprintf("exponential, mean %v", mean),
				draw: func(r *rand.Rand) time.Duration { return capped(r.ExpFloat64() * m) }})
		case "lognormal":
			mu := math.Log(m) - sigma*sigma/2 // mean exp(mu + sigma²/2) = hold
			out = append(out, holdDistribution{name: name, describe: fmt.Sprintf(
				"lognormal, mean %v, sigma %g (median %v)", mean, sigma, time.Duration(math.Exp(mu)).Round(time.Millisecond)),
				draw: func(r *rand.Rand) time.Duration { return capped(math.Exp(mu + sigma*r.NormFloat64())) }})
		case "pareto":
			xm := m * (alpha - 1) / alpha // mean alpha·xm/(alpha-1) = hold
			out = append(out, holdDistribution{name: name, floor: time.Duration(xm), describe: fmt.Sprintf(
				"Pareto, mean %v, alpha %g (minimum %v)", mean, alpha, time.Duration(xm).Round(time.Millisecond)),
				draw: func(r *rand.Rand) time.Duration { return capped(xm / math.Pow(1-r.Float64(), 1/alpha)) }})
		}
	}
	return out
}
