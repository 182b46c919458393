package stats

import (
	"math"
	"testing"
)

func TestCorrectionsMatchHandComputedValues(t *testing.T) {
	ps := []float64{0.01, 0.04, 0.03, 0.005}
	// Holm, sorted 0.005 0.01 0.03 0.04 times 4 3 2 1: 0.02 0.03 0.06 0.04 -> made monotone 0.06.
	// BH, times 4/1 4/2 4/3 4/4: 0.02 0.02 0.04 0.04, monotone from the top.
	for method, want := range map[string][]float64{
		Holm: {0.03, 0.06, 0.06, 0.02},
		BH:   {0.02, 0.04, 0.04, 0.02},
	} {
		got := Adjusted(ps, method)
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-12 {
				t.Errorf("%s: adjusted %v, want %v", method, got, want)
				break
			}
		}
	}
}

func TestCorrectionsRefuseWhatOneTestWouldCall(t *testing.T) {
	// 90 figures, one at p = 0.01: significant alone, not over the family.
	ps := make([]float64, 90)
	for i := range ps {
		ps[i] = 0.5
	}
	ps[7] = 0.01
	for _, method := range []string{Holm, BH} {
		if a := Adjusted(ps, method)[7]; a < 0.05 {
			t.Errorf("%s: p 0.01 among 90 figures adjusted to %g, want it no longer below 0.05", method, a)
		}
	}
	if _, err := ParseCorrection("bonferroni"); err == nil {
		t.Error("--correction bonferroni accepted")
	}
}
