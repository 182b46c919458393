package compare

import (
	"math"

	"golang.org/x/perf/benchmath"
)

// confidence is the coverage of the interval printed around each median.
const confidence = 0.95

// Spread is a median and the distribution-free interval around it that holds the
// true median with at least 95% confidence, as benchstat prints it.
type Spread struct {
	Median, Low, High float64
	// Bounded is false when the samples are too few for such an interval (under 6).
	Bounded bool
}

// spreadOf is benchmath's summary of values under no distributional assumption: the
// median, and the order statistics around it whose binomial coverage is at least 95%.
func spreadOf(values []float64) Spread {
	if len(values) == 0 {
		return Spread{}
	}
	s := benchmath.AssumeNothing.Summary(newSample(values), confidence)
	out := Spread{Median: s.Center}
	if !math.IsInf(s.Lo, 0) && !math.IsInf(s.Hi, 0) {
		out.Low, out.High, out.Bounded = s.Lo, s.Hi, true
	}
	return out
}

// RelativeWidth is the larger distance from the median to an end of the interval,
// relative to the median: the "± 3%" benchstat prints.
func (s Spread) RelativeWidth() float64 {
	if s.Median == 0 {
		return 0
	}
	return math.Max(s.Median-s.Low, s.High-s.Median) / math.Abs(s.Median)
}
