package compare

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/aclements/go-moremath/stats"
	"golang.org/x/perf/benchmath"
)

// fixedSample is a seeded sample of n log-normal latencies around 100 moved by
// e^shift, rounded to step when step > 0 so that they tie as HdrHistogram's do.
func fixedSample(seed uint64, n int, shift, step float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 7))
	out := make([]float64, n)
	for i := range out {
		v := 100 * math.Exp(0.1*rng.NormFloat64()+shift)
		if step > 0 {
			v = step * math.Round(v/step)
		}
		out[i] = v
	}
	return out
}

// pCase is a pair of fixed samples and whether both the hand-written test and the
// library count their p-value exactly (else one of them takes the normal
// approximation, and the two agree only as closely as it does).
type pCase struct {
	name        string
	n1, n2      int
	shift, step float64
	bothExact   bool
}

var pCases = []pCase{
	{"5+5", 5, 5, 0, 0, true}, {"5+8", 5, 8, 0.05, 0, true}, {"10+10", 10, 10, 0.05, 0, true},
	{"10+10 ties", 10, 10, 0.05, 5, true}, {"20+20 ties", 20, 20, 0.03, 5, true},
	{"10+10 one source", 10, 10, 0, 5, true},
	// The hand-written test is exact up to 60 values in all, the library up to 25 a
	// side with ties and 50 without: each approximates where the other counts.
	{"30+30 ties", 30, 30, 0.03, 5, false}, {"40+40", 40, 40, 0.02, 0, false},
	{"100+100 ties", 100, 100, 0.02, 2, true}, // both approximate, the same way
}

func (c pCase) samples() (x, y []float64) {
	return fixedSample(1, c.n1, 0, c.step), fixedSample(2, c.n2, c.shift, c.step)
}

// libraryP is benchstat's p-value: benchmath's Mann-Whitney U test.
func libraryP(x, y []float64) float64 {
	th := benchmath.DefaultThresholds
	s1, s2 := benchmath.NewSample(slices.Clone(x), &th), benchmath.NewSample(slices.Clone(y), &th)
	return benchmath.AssumeNothing.Compare(s1, s2).P
}

func TestLibraryPValueMatchesTheHandWrittenOne(t *testing.T) {
	for _, c := range pCases {
		x, y := c.samples()
		hand, lib := mannWhitneyP(x, y), libraryP(x, y)
		t.Logf("%s: hand-written p %.17g, library p %.17g", c.name, hand, lib)
		// Exact counts agree to rounding; an approximation is within a third of the exact p.
		tolerance := 1e-12
		if !c.bothExact {
			tolerance = 0.35
		}
		if math.Abs(lib/hand-1) > tolerance {
			t.Errorf("%s: library p %g, hand-written %g: beyond a relative %g", c.name, lib, hand, tolerance)
		}
	}
}

// libraryQuantile is moremath's two-sided Student t quantile.
func libraryQuantile(tail float64, nu int) float64 {
	return stats.InvCDF(stats.TDist{V: float64(nu)})(1 - tail/2)
}

func TestLibraryStudentQuantileMatchesTheHandWrittenOne(t *testing.T) {
	for _, nu := range []int{1, 2, 3, 5, 9, 30, 100} {
		for _, tail := range []float64{0.05, 0.01, 0.001, 0.05 / 90} {
			hand, lib := studentQuantile(tail, nu), libraryQuantile(tail, nu)
			if math.Abs(lib/hand-1) > 1e-6 {
				t.Errorf("t quantile for two-sided %g at %d df: library %.9g, hand-written %.9g", tail, nu, lib, hand)
			}
		}
	}
}

// benchstat's median interval covers at least 95% like the hand-written one, but its
// ends may sit one order statistic from the hand-written ones: it grows the interval
// one side at a time (from the normal approximation above 30 values), where the
// hand-written one took both ends symmetrically from the exact binomial.
func TestLibraryMedianIntervalIsNearTheHandWrittenOne(t *testing.T) {
	for n := 1; n <= 80; n++ {
		v := fixedSample(uint64(n), n, 0, 0)
		th := benchmath.DefaultThresholds
		lib := benchmath.AssumeNothing.Summary(benchmath.NewSample(slices.Clone(v), &th), confidence)
		hand := spreadOf(v)
		bounded := !math.IsInf(lib.Lo, 0) && !math.IsInf(lib.Hi, 0)
		if lib.Center != hand.Median || bounded != hand.Bounded || lib.Confidence < confidence {
			t.Errorf("n=%d: library %+v, hand-written %+v", n, lib, hand)
		}
		if !bounded {
			continue
		}
		sorted := slices.Sorted(slices.Values(v))
		order := func(x float64) int { i, _ := slices.BinarySearch(sorted, x); return i }
		if d, e := order(lib.Lo)-order(hand.Low), order(lib.Hi)-order(hand.High); d < -1 || d > 1 || e < -1 || e > 1 {
			t.Errorf("n=%d: library interval [%g, %g] more than one order statistic from the hand-written [%g, %g]",
				n, lib.Lo, lib.Hi, hand.Low, hand.High)
		}
	}
}
