package lab

import (
	"testing"

	"github.com/lockbench/lockbench/safety/check"
	"github.com/lockbench/lockbench/safety/results"
)

// TestLinearizabilityUnknownIsCounted: a porcupine search that ran out of time is
// counted as unknown, never read as linearizable. The search's own timeout is
// check.TestLinearizableTimeout's; a timeout raced by a 1 ns budget here was not
// deterministic (the search sometimes finished first, under -race in CI).
func TestLinearizabilityUnknownIsCounted(t *testing.T) {
	cases := []struct {
		result             string
		unknown, notLinear int
	}{
		{check.LinearUnknown, 1, 0},
		{check.NotLinear, 0, 1},
		{check.Linear, 0, 0},
	}
	for _, c := range cases {
		counts, _, _ := countsOf(check.Verdict{Linear: check.LinearReport{Result: c.result}})
		if counts[results.LinearUnknown] != c.unknown || counts[results.NotLinearizable] != c.notLinear {
			t.Errorf("%s: counts %v, want unknown %d, not linearizable %d", c.result, counts, c.unknown, c.notLinear)
		}
	}
}
