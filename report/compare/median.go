package compare

import (
	"math"
	"sort"
)

// confidence is the coverage of the interval printed around each median.
const confidence = 0.95

// Spread is a median and the distribution-free interval around it that holds the
// true median with at least 95% confidence (as benchstat prints it).
type Spread struct {
	Median, Low, High float64
	// Bounded is false when the samples are too few for such an interval (under 6).
	Bounded bool
}

// spreadOf is the median of values and the interval between the order statistics
// x(k) and x(n+1-k) for the largest k whose coverage, 1 - 2 P(Binomial(n, 1/2) < k),
// is still at least 95%.
func spreadOf(values []float64) Spread {
	n := len(values)
	if n == 0 {
		return Spread{}
	}
	s := append([]float64(nil), values...)
	sort.Float64s(s)
	out := Spread{Median: medianOfSorted(s)}
	below := 0.0 // P(Binomial(n, 1/2) <= k-1)
	for k := 1; k <= n/2; k++ {
		below += binomialHalf(n, k-1)
		if 1-2*below < confidence {
			break
		}
		out.Low, out.High, out.Bounded = s[k-1], s[n-k], true
	}
	return out
}

// binomialHalf is P(Binomial(n, 1/2) = k).
func binomialHalf(n, k int) float64 {
	return math.Exp(lgamma(n+1) - lgamma(k+1) - lgamma(n-k+1) - float64(n)*math.Ln2)
}

func medianOfSorted(s []float64) float64 {
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// RelativeWidth is the larger distance from the median to an end of the interval,
// relative to the median: the "± 3%" benchstat prints.
func (s Spread) RelativeWidth() float64 {
	if s.Median == 0 {
		return 0
	}
	return math.Max(s.Median-s.Low, s.High-s.Median) / math.Abs(s.Median)
}
