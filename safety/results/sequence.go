package results

import "math"

// sequenceAlpha is the chance that a confidence sequence ever, at any trial count,
// leaves out the true rate: 95%, as the Wilson intervals beside it.
const sequenceAlpha = 0.05

// Sequence is the 95% confidence sequence for k events in n trials: unlike Wilson's
// interval, it holds at every n at once, so it stays valid when the run stops on the
// data it has seen (--until-width). It is the set of rates p at which a Beta(1/2, 1/2)
// mixture of likelihood ratios has not reached 1/alpha; Ville's inequality bounds
// the chance that it ever does at the true p by alpha. n = 0 gives [0, 1].
func Sequence(k, n int) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	bound := math.Log(1 / sequenceAlpha)
	excluded := func(p float64) bool { return logMixtureRatio(k, n, p) >= bound }
	mle := float64(k) / float64(n)
	lo, hi = 0, 1
	if k > 0 {
		lo = edge(excluded, 0, mle) // excluded at 0, kept at the estimate
	}
	if k < n {
		hi = edge(excluded, 1, mle)
	}
	return lo, hi
}

// logMixtureRatio is the log of the mixture martingale at p: the Beta(1/2, 1/2)
// marginal likelihood of the k of n seen over their likelihood at p.
func logMixtureRatio(k, n int, p float64) float64 {
	if p <= 0 || p >= 1 {
		return math.Inf(1)
	}
	kf, mf := float64(k), float64(n-k)
	return logBeta(kf+0.5, mf+0.5) - logBeta(0.5, 0.5) - kf*math.Log(p) - mf*math.Log1p(-p)
}

func logBeta(a, b float64) float64 {
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	return la + lb - lab
}

// edge bisects between out (excluded) and in (kept) for the boundary of the set: the
// ratio is convex in p with its minimum at the estimate, so the set is one interval.
func edge(excluded func(float64) bool, out, in float64) float64 {
	for range 100 {
		mid := (out + in) / 2
		if excluded(mid) {
			out = mid
		} else {
			in = mid
		}
	}
	return in
}
