package stats

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// Values by hand: 3 of 3 against 0 of 3 is the most extreme of C(6,3) = 20 tables, 1/20.
func TestFisherGreaterByHand(t *testing.T) {
	cases := []struct {
		k1, n1, k2, n2 int
		want           float64
	}{
		{3, 3, 0, 3, 1.0 / 20},
		// 2 of 3 vs 1 of 3: tables with x >= 2 of 3 events in group 1: x=2: C(3,2)C(3,1)=9, x=3: 1; of 20.
		{2, 3, 1, 3, 10.0 / 20},
		{0, 3, 3, 3, 1},
		// 20 of 20 vs 0 of 20: 1 / C(40,20).
		{20, 20, 0, 20, 1 / 137846528820.0},
		{0, 0, 5, 5, 1},
	}
	for _, c := range cases {
		if got := FisherGreater(c.k1, c.n1, c.k2, c.n2); !near(got, c.want) && math.Abs(got-c.want)/c.want > 1e-9 {
			t.Errorf("FisherGreater(%d,%d,%d,%d) = %g, want %g", c.k1, c.n1, c.k2, c.n2, got, c.want)
		}
	}
}

// The test is one-sided: evidence for "above" is no evidence for "below".
func TestFisherGreaterIsOneSided(t *testing.T) {
	if p := FisherGreater(0, 20, 20, 20); p < 0.99 {
		t.Errorf("0 of 20 above 20 of 20: p = %g, want about 1", p)
	}
	if p := FisherGreater(20, 20, 0, 20); p > 1e-9 {
		t.Errorf("20 of 20 above 0 of 20: p = %g, want tiny", p)
	}
}

func TestBinomialAtMostByHand(t *testing.T) {
	// 0 of 59 at 5%: 0.95^59 = 0.0485 (the smallest n that shows "below 5%" at 0.05).
	if got, want := BinomialAtMost(0, 59, 0.05), math.Pow(0.95, 59); !near(got, want) {
		t.Errorf("0 of 59: %g, want %g", got, want)
	}
	if got, want := BinomialAtMost(0, 20, 0.05), math.Pow(0.95, 20); !near(got, want) {
		t.Errorf("0 of 20: %g, want %g", got, want)
	}
	// 1 of 2 at 1/2: P(X<=1) = 3/4.
	if got := BinomialAtMost(1, 2, 0.5); !near(got, 0.75) {
		t.Errorf("1 of 2 at 1/2: %g, want 0.75", got)
	}
	if BinomialAtMost(5, 5, 0.1) != 1 {
		t.Error("k = n must give 1")
	}
}
