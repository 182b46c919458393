package compare

import (
	"math"
	"testing"
)

func TestStudentQuantilesMatchTables(t *testing.T) {
	for _, tc := range []struct {
		tail float64
		nu   int
		want float64
	}{
		{0.05, 1, 12.706}, {0.05, 2, 4.303}, {0.05, 3, 3.182}, {0.05, 4, 2.776},
		{0.05, 9, 2.262}, {0.05, 30, 2.042}, {0.01, 5, 4.032}, {0.01, 10, 3.169},
	} {
		if got := studentQuantile(tc.tail, tc.nu); math.Abs(got-tc.want) > 0.002 {
			t.Errorf("t quantile for two-sided %g at %d df = %.4f, want %.3f", tc.tail, tc.nu, got, tc.want)
		}
	}
	// One degree of freedom is Cauchy: the quantile is a tangent.
	if got, want := studentQuantile(0.001, 1), math.Tan(math.Pi*(0.5-0.0005)); math.Abs(got/want-1) > 1e-6 {
		t.Errorf("Cauchy quantile %g, want %g", got, want)
	}
}
