package bench

import (
	"math"
	"testing"
	"time"
)

func sharesOf(cycles []int, wait func(client, i int) time.Duration) []*share {
	out := newShares(len(cycles))
	for c, n := range cycles {
		for i := 0; i < n; i++ {
			out[c].add(wait(c, i))
		}
	}
	return out
}

// Jain's index is 1 when every client got as many cycles, 1/n when one took them all,
// and in between as the textbook's worked case says.
func TestJainsIndexOfTheClientsCycles(t *testing.T) {
	flat := func(int, int) time.Duration { return time.Millisecond }
	for _, tc := range []struct {
		cycles  []int
		jain    float64
		starved int
	}{
		{[]int{10, 10, 10, 10}, 1, 0},
		{[]int{40, 0, 0, 0}, 0.25, 3},
		{[]int{1, 2, 3}, 36.0 / 42, 0}, // (1+2+3)^2 / (3 x (1+4+9))
	} {
		f := fairnessOf(sharesOf(tc.cycles, flat))
		if math.Abs(f.Jain-tc.jain) > 1e-12 || f.Starved != tc.starved || f.Clients != len(tc.cycles) {
			t.Errorf("cycles %v: %+v, want Jain %.4f with %d starved", tc.cycles, f, tc.jain, tc.starved)
		}
	}
	if f := fairnessOf(sharesOf([]int{5}, flat)); f != (Fairness{}) {
		t.Errorf("one client: %+v, want no fairness (nothing to compare)", f)
	}
	if f := fairnessOf(sharesOf([]int{0, 0}, flat)); f != (Fairness{}) {
		t.Errorf("no cycle: %+v, want no fairness", f)
	}
}

// The worst client is the one whose own p99 wait is highest, not the pooled p99.
func TestWorstClientIsTheOneWithTheHighestP99(t *testing.T) {
	wait := func(c, i int) time.Duration {
		if c == 2 && i%2 == 0 {
			return 100 * time.Millisecond // half of client 2's waits are long
		}
		return time.Millisecond
	}
	f := fairnessOf(sharesOf([]int{100, 100, 100, 100}, wait))
	if f.WorstClient != 2 || f.WorstP99 < 99*time.Millisecond || f.WorstP99 > 101*time.Millisecond {
		t.Errorf("%+v: want client 2 worst, p99 about 100ms", f)
	}
}
