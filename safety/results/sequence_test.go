package results

import (
	"flag"
	"math"
	"math/rand/v2"
	"testing"
)

// At k = 0 the upper end solves (1-p)^n = alpha * B(1/2, n+1/2) / B(1/2, 1/2) in closed
// form; the bisection must land on it.
func TestSequenceAtZeroEventsMatchesTheClosedForm(t *testing.T) {
	for _, n := range []int{1, 20, 3000} {
		lo, hi := Sequence(0, n)
		want := 1 - math.Exp((math.Log(sequenceAlpha)+logBeta(0.5, float64(n)+0.5)-logBeta(0.5, 0.5))/float64(n))
		if lo != 0 || math.Abs(hi-want) > 1e-9 {
			t.Errorf("0 of %d: [%g, %g], want [0, %g]", n, lo, hi, want)
		}
		if wlo, whi := Wilson(0, n); hi <= whi || wlo != 0 {
			t.Errorf("0 of %d: sequence's %g not wider than Wilson's %g (the price of holding at every n)", n, hi, whi)
		}
	}
}

func TestSequenceHoldsTheEstimateAndIsSymmetric(t *testing.T) {
	for _, c := range [][2]int{{1, 10}, {5, 10}, {37, 200}, {200, 200}} {
		k, n := c[0], c[1]
		lo, hi := Sequence(k, n)
		p := float64(k) / float64(n)
		if lo > p || hi < p {
			t.Errorf("%d of %d: [%g, %g] leaves out the estimate %g", k, n, lo, hi, p)
		}
		mlo, mhi := Sequence(n-k, n)
		if math.Abs(lo-(1-mhi)) > 1e-9 || math.Abs(hi-(1-mlo)) > 1e-9 {
			t.Errorf("%d of %d: [%g, %g] is not the mirror of %d of %d's [%g, %g]", k, n, lo, hi, n-k, n, mlo, mhi)
		}
	}
}

// stopByWidth runs Bernoulli(p) trials until interval's width is below w (or cap) and
// says whether the interval at the stop holds p.
func stopByWidth(r *rand.Rand, p, w float64, cap int, interval func(k, n int) (float64, float64)) bool {
	k := 0
	var lo, hi float64
	for n := 1; n <= cap; n++ {
		if r.Float64() < p {
			k++
		}
		if lo, hi = interval(k, n); hi-lo < w {
			break
		}
	}
	return lo <= p && p <= hi
}

// long runs the coverage test over 4000 stopped runs instead of 1000.
var long = flag.Bool("long", false, "run the coverage simulations at full size")

// The reason for the sequence: a run that stops once its interval is narrow enough
// picks its n from the data. Wilson's interval read at that n covers the true rate
// less often than 95% (here about 90%); the sequence's still covers it at least 95%.
// 1000 runs put Wilson's 90% three standard errors below the 93% the test asks.
func TestStoppingByWidthUnderCoversWilsonButNotTheSequence(t *testing.T) {
	const p, w, cap = 0.5, 0.4, 5000
	runs := 1000
	if *long {
		runs = 4000
	}
	coverage := func(interval func(k, n int) (float64, float64)) float64 {
		r := rand.New(rand.NewPCG(7, 11))
		held := 0
		for range runs {
			if stopByWidth(r, p, w, cap, interval) {
				held++
			}
		}
		return float64(held) / float64(runs)
	}
	wilson, sequence := coverage(Wilson), coverage(Sequence)
	t.Logf("p=%g, stop when width < %g: Wilson covers %.3f, the sequence %.3f of %d runs", p, w, wilson, sequence, runs)
	if wilson >= 0.93 {
		t.Errorf("Wilson covered %.3f with stopping by width: the test no longer shows the under-coverage it is for", wilson)
	}
	if sequence < 0.95 {
		t.Errorf("the confidence sequence covered %.3f < 0.95 with stopping by width", sequence)
	}
}
