package compare

import (
	"math"
	"sort"
)

// exactLimit bounds the total sample size for which the exact U distribution is
// counted; beyond it the normal approximation is close enough.
const exactLimit = 60

// mannWhitneyP is the two-sided p-value of the Mann-Whitney U test that x and y come
// from the same distribution: the test benchstat uses, free of any normality
// assumption. Up to exactLimit values it is exact, ties included (latencies from
// HdrHistograms tie often): the share of all ways to split the pooled ranks into
// len(x) and len(y) whose rank sum is at least as far from its mean as x's.
func mannWhitneyP(x, y []float64) float64 {
	n1, n2 := len(x), len(y)
	if n1 == 0 || n2 == 0 {
		return 1
	}
	ranks, fromX := doubledRanks(x, y)
	var w int // doubled rank sum of x
	for i, r := range ranks {
		if fromX[i] {
			w += r
		}
	}
	if n1+n2 <= exactLimit {
		return exactP(ranks, n1, w)
	}
	return normalP(ranks, n1, n2, w)
}

// doubledRanks pools x and y and ranks them, ties sharing their mean rank; ranks are
// doubled so that mean ranks stay whole numbers.
func doubledRanks(x, y []float64) (ranks []int, fromX []bool) {
	type obs struct {
		v     float64
		fromX bool
	}
	all := make([]obs, 0, len(x)+len(y))
	for _, v := range x {
		all = append(all, obs{v, true})
	}
	for _, v := range y {
		all = append(all, obs{v, false})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].v < all[j].v })
	ranks, fromX = make([]int, len(all)), make([]bool, len(all))
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].v == all[i].v {
			j++
		}
		for k := i; k < j; k++ {
			ranks[k], fromX[k] = i+1+j, all[k].fromX // (i+1 + j) is twice the mean of ranks i+1..j
		}
		i = j
	}
	return ranks, fromX
}

// exactP counts, over every choice of n1 of the ranks, how many have a doubled rank
// sum at least as far from its mean as w.
func exactP(ranks []int, n1, w int) float64 {
	n := len(ranks)
	mean := n1 * (n + 1) // doubled: n1 * (n+1)/2, times two
	maxSum := n * (n + 1)
	// ways[k][s]: subsets of k ranks seen so far whose doubled sum is s.
	ways := make([][]float64, n1+1)
	for k := range ways {
		ways[k] = make([]float64, maxSum+1)
	}
	ways[0][0] = 1
	reached := 0 // the largest sum any subset of the ranks seen so far can have
	for i, r := range ranks {
		for k := min(i+1, n1); k >= 1; k-- {
			from, to := ways[k-1], ways[k]
			for s := reached; s >= 0; s-- {
				if from[s] != 0 {
					to[s+r] += from[s]
				}
			}
		}
		reached += r
	}
	dist := abs(w - mean)
	var extreme, total float64
	for s, c := range ways[n1] {
		total += c
		if abs(s-mean) >= dist {
			extreme += c
		}
	}
	return math.Min(1, extreme/total)
}

// normalP is the normal approximation with tie and continuity corrections.
func normalP(ranks []int, n1, n2, w int) float64 {
	n := float64(n1 + n2)
	var tieTerm float64
	for i := 0; i < len(ranks); {
		j := i
		for j < len(ranks) && ranks[j] == ranks[i] {
			j++
		}
		if t := float64(j - i); t > 1 {
			tieTerm += t*t*t - t
		}
		i = j
	}
	u1 := float64(w)/2 - float64(n1*(n1+1))/2
	sigma := math.Sqrt(float64(n1*n2) / 12 * ((n + 1) - tieTerm/(n*(n-1))))
	if sigma == 0 {
		return 1
	}
	z := math.Max(0, (math.Abs(u1-float64(n1*n2)/2)-0.5)/sigma)
	return math.Min(1, math.Erfc(z/math.Sqrt2))
}

// smallestP is the least two-sided p-value samples of n1 and n2 can reach (without
// ties): when it is not below alpha no difference can be called significant.
func smallestP(n1, n2 int) float64 {
	if n1 == 0 || n2 == 0 {
		return 1
	}
	// 2 / C(n1+n2, n1): only the two complete separations are that extreme.
	logC := lgamma(n1+n2+1) - lgamma(n1+1) - lgamma(n2+1)
	return math.Min(1, 2*math.Exp(-logC))
}

func lgamma(x int) float64 {
	v, _ := math.Lgamma(float64(x))
	return v
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
