package results

import "math"

// z95 is the normal quantile for a two-sided 95% interval.
const z95 = 1.959963984540054

// Wilson is the 95% Wilson score interval for k successes in n trials: unlike the
// normal approximation it stays inside [0, 1] and is honest at k = 0 (0 of 20 gives
// 0-16%). n = 0 gives the whole of [0, 1].
func Wilson(k, n int) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	p, nf, z2 := float64(k)/float64(n), float64(n), z95*z95
	centre := (p + z2/(2*nf)) / (1 + z2/nf)
	half := z95 / (1 + z2/nf) * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	lo, hi = math.Max(0, centre-half), math.Min(1, centre+half)
	if k == 0 {
		lo = 0
	}
	if k == n {
		hi = 1
	}
	return lo, hi
}
