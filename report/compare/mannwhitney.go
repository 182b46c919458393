package compare

import (
	"math"
	"slices"

	"github.com/aclements/go-moremath/mathx"
	"golang.org/x/perf/benchmath"
)

// thresholds is benchmath's default; its alpha only words benchmath's warnings, which
// compare does not print: the gate applies Options.Alpha after the correction.
var thresholds = benchmath.DefaultThresholds

// newSample copies values into a benchmath sample, which sorts them in place.
func newSample(values []float64) *benchmath.Sample {
	return benchmath.NewSample(slices.Clone(values), &thresholds)
}

// mannWhitneyP is the two-sided p-value of the Mann-Whitney U test that x and y come
// from the same distribution, as benchstat computes it (benchmath.AssumeNothing): free
// of any normality assumption, exact for small samples, ties included (latencies from
// HdrHistograms tie often), else the normal approximation with tie and continuity
// corrections. Identical samples give 1.
func mannWhitneyP(x, y []float64) float64 {
	if len(x) == 0 || len(y) == 0 {
		return 1
	}
	// With ties the exact distribution need not be symmetric, so twice one tail can pass 1.
	return math.Min(1, benchmath.AssumeNothing.Compare(newSample(x), newSample(y)).P)
}

// smallestP is the least two-sided p-value samples of n1 and n2 can reach (without
// ties): when it is not below alpha no difference can be called significant. Kept
// here because benchmath's table of it is unexported and for equal sizes only.
func smallestP(n1, n2 int) float64 {
	if n1 == 0 || n2 == 0 {
		return 1
	}
	// 2 / C(n1+n2, n1): only the two complete separations are that extreme.
	return math.Min(1, 2/mathx.Choose(n1+n2, n1))
}
