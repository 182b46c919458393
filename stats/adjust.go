package stats

import (
	"fmt"
	"sort"
)

// Corrections for testing a family of hypotheses at once.
const (
	// Holm bounds the family-wise error rate: the chance that any one hypothesis of the
	// family is called shown when none is. Valid whatever the tests' dependence.
	Holm = "holm"
	// BH (Benjamini-Hochberg) bounds the false discovery rate: the expected share of
	// rejections that are false. More power over large families; under the complete
	// null it bounds the family-wise rate too.
	BH = "bh"
)

// ParseCorrection checks a correction's name.
func ParseCorrection(s string) (string, error) {
	switch s {
	case Holm, BH:
		return s, nil
	}
	return "", fmt.Errorf("--correction %q: want %s (family-wise error rate) or %s (false discovery rate)", s, Holm, BH)
}

// Adjusted returns each p-value adjusted for the family of all of ps, so that a
// hypothesis is rejected at alpha over the family when its adjusted value is below alpha.
func Adjusted(ps []float64, method string) []float64 {
	m := len(ps)
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return ps[order[a]] < ps[order[b]] })
	out := make([]float64, m)
	if method == BH {
		running := 1.0 // step-up: from the largest p down, never above the next one's
		for k := m - 1; k >= 0; k-- {
			running = min(running, ps[order[k]]*float64(m)/float64(k+1))
			out[order[k]] = running
		}
		return out
	}
	running := 0.0 // step-down: from the smallest p up, never below the previous one's
	for k := 0; k < m; k++ {
		running = max(running, min(1, ps[order[k]]*float64(m-k)))
		out[order[k]] = running
	}
	return out
}
