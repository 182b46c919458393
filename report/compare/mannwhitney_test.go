package compare

import (
	"math"
	"math/rand/v2"
	"testing"
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

// pCase is a pair of fixed samples and the p-value the hand-written test gave them
// before benchmath's replaced it; approximate says one of the two took the normal
// approximation where the other counted exactly, so they agree only as closely as it does.
type pCase struct {
	name        string
	n1, n2      int
	shift, step float64
	handWritten float64
	approximate bool
}

var pCases = []pCase{
	{"5+5", 5, 5, 0, 0, 0.54761904761904767, false},
	{"5+8", 5, 8, 0.05, 0, 0.43512043512043513, false},
	{"10+10", 10, 10, 0.05, 0, 0.089209552057849265, false},
	{"10+10 ties", 10, 10, 0.05, 5, 0.076078720041568335, false},
	{"20+20 ties", 20, 20, 0.03, 5, 0.029303041683948004, false},
	{"10+10 one source", 10, 10, 0, 5, 0.56563250990495573, false},
	// The hand-written test counted exactly up to 60 values in all; benchmath counts up
	// to 25 a side with ties and 50 without.
	{"30+30 ties", 30, 30, 0.03, 5, 0.000980336226476833, true},
	{"40+40", 40, 40, 0.02, 0, 0.0080253844738138319, true},
	{"100+100 ties", 100, 100, 0.02, 2, 0.00028038869366658274, false}, // both approximate, alike
}

func (c pCase) samples() (x, y []float64) {
	return fixedSample(1, c.n1, 0, c.step), fixedSample(2, c.n2, c.shift, c.step)
}

func TestMannWhitneyPKeepsTheHandWrittenValues(t *testing.T) {
	for _, c := range pCases {
		x, y := c.samples()
		got := mannWhitneyP(x, y)
		// Exact counts agree to rounding; an approximation is within a third of the exact p.
		tolerance := 1e-12
		if c.approximate {
			tolerance = 0.35
		}
		if math.Abs(got/c.handWritten-1) > tolerance {
			t.Errorf("%s: p %.17g, the hand-written test gave %.17g: beyond a relative %g",
				c.name, got, c.handWritten, tolerance)
		}
	}
}

// benchstat's median interval grows from the median one side at a time (from the
// normal approximation above 30 values), so its ends may sit one order statistic from
// the symmetric ones the hand-written interval took: at 8 values it was [1, 8], at 44
// [16, 29], at 67 [26, 42], at 100 [40, 61]. Each covers at least 95%.
func TestMedianIntervalIsBenchstats(t *testing.T) {
	for n, want := range map[int][2]float64{
		6: {1, 6}, 8: {1, 7}, 10: {2, 9}, 20: {6, 15}, 30: {10, 21}, 44: {15, 29}, 67: {25, 42}, 100: {40, 60},
	} {
		ranks := make([]float64, n)
		for i := range ranks {
			ranks[n-1-i] = float64(i + 1) // in reverse: spreadOf sorts a copy
		}
		s := spreadOf(ranks)
		if !s.Bounded || s.Low != want[0] || s.High != want[1] || s.Median != float64(n+1)/2 {
			t.Errorf("ranks 1..%d: %+v, want the median %g in [%g, %g]", n, s, float64(n+1)/2, want[0], want[1])
		}
		if ranks[0] != float64(n) {
			t.Errorf("spreadOf reordered its argument")
		}
	}
}
