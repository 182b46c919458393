package stats

import "math"

// logChoose is ln C(n, k), exact enough for the trial counts of a safety campaign.
func logChoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// FisherGreater is the one-sided p-value of Fisher's exact test that the first group's
// rate (k1 of n1) is above the second's (k2 of n2): the chance, with both margins fixed
// and no difference, of k1 or more of the k1+k2 events falling in the first group.
// A group with no trials gives 1: no evidence either way.
func FisherGreater(k1, n1, k2, n2 int) float64 {
	if n1 <= 0 || n2 <= 0 {
		return 1
	}
	n, events := n1+n2, k1+k2
	denom := logChoose(n, n1)
	p := 0.0
	for x := k1; x <= min(events, n1); x++ {
		if events-x > n2 {
			continue // the second group cannot hold the rest
		}
		p += math.Exp(logChoose(events, x) + logChoose(n-events, n1-x) - denom)
	}
	return min(p, 1)
}

// BinomialAtMost is P(X <= k) for X ~ Binomial(n, p): the one-sided exact p-value that
// a rate is below p after seeing k of n.
func BinomialAtMost(k, n int, p float64) float64 {
	if k >= n {
		return 1
	}
	if p <= 0 {
		return 1
	}
	if p >= 1 {
		return 0
	}
	sum := 0.0
	for i := 0; i <= k; i++ {
		sum += math.Exp(logChoose(n, i) + float64(i)*math.Log(p) + float64(n-i)*math.Log1p(-p))
	}
	return min(sum, 1)
}
