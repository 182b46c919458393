package adr

import (
	"fmt"
	"math"
	"strings"
)

// z95 is the normal quantile of the 95% Wilson interval the safety tables use.
const z95 = 1.959963984540054

// ZeroSeenTrials is the judged trials with none seen that bring a fault's upper end
// down to share: Wilson's upper end at 0 of n is z^2 / (n + z^2), so n = z^2 (scale /
// share - 1), where scale is its faults a year x the locks each finds held.
func ZeroSeenTrials(scale, share float64) int {
	if scale <= share {
		return 0
	}
	return int(math.Ceil(z95 * z95 * (scale/share - 1)))
}

// trialsNeeded says, for the faults that can strike, how many judged trials with none
// reaching the data would put the total's upper end within budget, the budget split
// evenly among them.
func trialsNeeded(es []Exposure, budget float64) string {
	var striking []Exposure
	for _, e := range es {
		if e.NA == "" && e.PerYear > 0 {
			striking = append(striking, e)
		}
	}
	if len(striking) == 0 {
		return "no fault can strike"
	}
	if budget == 0 {
		return "a budget of 0 cannot be shown by any number of trials; give the smallest count a year the team accepts"
	}
	share := budget / float64(len(striking))
	var parts, seen, unsized []string
	for _, e := range striking {
		if e.Data != nil && e.Data.Demo == Never { // a mechanism, not a rate: more trials bound nothing
			continue
		}
		if e.Data != nil && e.Data.Uncounted != "" { // the lab's P is not the workload's, however many trials
			unsized = append(unsized, string(e.Kind))
			continue
		}
		if e.Data != nil && e.Data.P.K > 0 { // more trials cannot make what was seen unseen
			seen = append(seen, fmt.Sprintf("%s reached the data in %d of %d", e.Kind, e.Data.P.K, e.Data.P.N))
			continue
		}
		have := 0
		if e.Data != nil {
			have = e.Data.P.N
		}
		parts = append(parts, fmt.Sprintf("%s %d (has %d)", e.Kind, ZeroSeenTrials(e.PerYear*e.LocksHeld, share), have))
	}
	out := ""
	if len(parts) > 0 {
		out = "judged trials with none reaching the data that would show it, the budget split evenly: " +
			strings.Join(parts, ", ")
	}
	if len(seen) > 0 {
		out = strings.TrimPrefix(out+"; ", "; ") + "seen, so no count of trials shows it: " + strings.Join(seen, ", ")
	}
	if len(unsized) > 0 {
		out = strings.TrimPrefix(out+"; ", "; ") + "not sized, so no count of trials at the lab's conditions shows " +
			"it: " + strings.Join(unsized, ", ")
	}
	return out
}
