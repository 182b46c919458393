package compare

import (
	"math"
	"sort"
)

// exactLimit bounds the sample sizes for which the exact U distribution is counted;
// beyond it, or with ties, the normal approximation is close enough.
const exactLimit = 20

// mannWhitneyP is the two-sided p-value of the Mann-Whitney U test that x and y come
// from the same distribution: the test benchstat uses, free of any normality assumption.
func mannWhitneyP(x, y []float64) float64 {
	n1, n2 := len(x), len(y)
	if n1 == 0 || n2 == 0 {
		return 1
	}
	type obs struct {
		v     float64
		fromX bool
	}
	all := make([]obs, 0, n1+n2)
	for _, v := range x {
		all = append(all, obs{v, true})
	}
	for _, v := range y {
		all = append(all, obs{v, false})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].v < all[j].v })
	// Average ranks over ties, and the tie correction term.
	var rankX, tieTerm float64
	ties := false
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].v == all[i].v {
			j++
		}
		rank := float64(i+j+1) / 2 // ranks i+1..j averaged
		for k := i; k < j; k++ {
			if all[k].fromX {
				rankX += rank
			}
		}
		if t := float64(j - i); t > 1 {
			ties = true
			tieTerm += t*t*t - t
		}
		i = j
	}
	u1 := rankX - float64(n1*(n1+1))/2
	u := math.Min(u1, float64(n1*n2)-u1)
	if !ties && n1 <= exactLimit && n2 <= exactLimit {
		return math.Min(1, 2*exactCDF(n1, n2, int(u)))
	}
	n := float64(n1 + n2)
	sigma := math.Sqrt(float64(n1*n2) / 12 * ((n + 1) - tieTerm/(n*(n-1))))
	if sigma == 0 {
		return 1
	}
	z := (math.Abs(u1-float64(n1*n2)/2) - 0.5) / sigma
	if z < 0 {
		z = 0
	}
	return math.Min(1, math.Erfc(z/math.Sqrt2))
}

// exactCDF is P(U <= u) for samples of sizes m and n without ties: the share of the
// C(m+n, m) orderings whose U is at most u.
func exactCDF(m, n, u int) float64 {
	// ways[i][j] is the count of orderings of i x's and j y's by U, as a polynomial in U.
	ways := make([][][]float64, m+1)
	for i := range ways {
		ways[i] = make([][]float64, n+1)
		for j := range ways[i] {
			poly := make([]float64, i*j+1)
			switch {
			case i == 0 || j == 0:
				poly[0] = 1
			default:
				// The largest value is an x (it beats all j y's) or a y (it beats none).
				for k, c := range ways[i-1][j] {
					poly[k+j] += c
				}
				for k, c := range ways[i][j-1] {
					poly[k] += c
				}
			}
			ways[i][j] = poly
		}
	}
	var below, total float64
	for k, c := range ways[m][n] {
		total += c
		if k <= u {
			below += c
		}
	}
	return below / total
}
