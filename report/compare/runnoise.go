package compare

import (
	"math"

	moremath "github.com/aclements/go-moremath/stats"

	"github.com/lockbench/lockbench/stats"
)

// How a row's verdict accounts for the noise between runs.
const (
	// NoiseInSamples: the samples are repeats, so run-to-run noise is in the test.
	NoiseInSamples = "in samples"
	// NoiseMeasured: the samples are intervals, but some side has two or more repeats
	// whose spread measures the run-to-run noise the change must exceed.
	NoiseMeasured = "measured"
	// NoiseUnmeasured: one run a side: only within-run intervals, and the change must
	// exceed the stated run-to-run allowance.
	NoiseUnmeasured = "not measured"
	// NoiseTailUnmeasured: a tail percentile from one run a side: shown, never gated,
	// because one run's tail moved beyond any allowance between identical runs.
	NoiseTailUnmeasured = "tail, not measured"
)

// DefaultRunAllowance is the slowdown factor less one that a change seen only within
// runs must exceed to fail the gate: identical runs on a shared 2-core machine differed
// by up to about 40% in medians and throughput, and more in p99 (docs/compare.md).
const DefaultRunAllowance = 0.5

// runSpread is the pooled standard deviation of the logarithm of metric m's whole-run
// figures over the repeats of each side, with its degrees of freedom; 0 degrees when
// no side has two repeats.
func runSpread(old, new *stats.Group, m metric) (sd float64, df int) {
	var squares float64
	for _, g := range []*stats.Group{old, new} {
		var logs []float64
		for _, c := range g.Repeats {
			if v, ok := m.whole(c); ok && v > 0 {
				logs = append(logs, math.Log(v))
			}
		}
		if len(logs) < 2 {
			continue
		}
		mean := 0.0
		for _, l := range logs {
			mean += l / float64(len(logs))
		}
		for _, l := range logs {
			squares += (l - mean) * (l - mean)
		}
		df += len(logs) - 1
	}
	if df == 0 {
		return 0, 0
	}
	return math.Sqrt(squares / float64(df)), df
}

// measuredAllowance is the change run-to-run noise of spread sd (df degrees) can make
// between the medians of kOld and kNew runs, at two-sided level: a Student bound on the
// difference of the two sides' run effects, as a factor less one.
func measuredAllowance(sd float64, df, kOld, kNew int, level float64) float64 {
	se := sd * math.Sqrt(1/float64(kOld)+1/float64(kNew))
	return math.Exp(studentQuantile(level, df)*se) - 1
}

// studentQuantile is the t beyond which |T| falls with probability tail (two-sided):
// the multiple of a standard error a measured spread allows. benchmath has no t
// quantile (its Welch test gives p-values only), so it comes from moremath.
func studentQuantile(tail float64, nu int) float64 {
	return moremath.InvCDF(moremath.TDist{V: float64(nu)})(1 - tail/2)
}

// slowdownFactor is how many times worse new is than old, below 1 when it is better:
// latencies grow, rates shrink.
func slowdownFactor(row Row, higherWorse bool) float64 {
	o, n := row.OldSpread.Median, row.NewSpread.Median
	if o <= 0 || n <= 0 {
		return 1
	}
	if higherWorse {
		return n / o
	}
	return o / n
}
