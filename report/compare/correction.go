package compare

import (
	"fmt"
	"sort"
)

// Corrections for testing many figures at once.
const (
	// Holm bounds the family-wise error rate: the chance that any one figure of the
	// comparison is called changed when none is. The default, because the gate's exit
	// status is one decision over all figures, and Holm keeps that bound whatever the
	// other figures do (BH loosens its level when some figures really changed).
	Holm = "holm"
	// BH (Benjamini-Hochberg) bounds the false discovery rate: the expected share of
	// figures called changed that did not change. More power over large sweeps; under
	// the complete null it bounds the family-wise rate too.
	BH = "bh"
)

// ParseCorrection checks a --correction value.
func ParseCorrection(s string) (string, error) {
	switch s {
	case Holm, BH:
		return s, nil
	}
	return "", fmt.Errorf("--correction %q: want %s (family-wise error rate) or %s (false discovery rate)", s, Holm, BH)
}

// adjusted returns each p-value adjusted for the family of all of ps, so that a figure
// is significant at alpha over the family when its adjusted value is below alpha.
func adjusted(ps []float64, method string) []float64 {
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
