package adr

import (
	"math"
	"sort"
	"strconv"
	"time"

	"gonum.org/v1/plot/plotter"

	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/plots/decision"
	"github.com/lockbench/lockbench/safety/results"
)

// heatMaps are the two-parameter sweeps the safety results hold, each with its
// analytic boundary: failover-loss (kill delay x the promoted replica's lag) and
// redlock-clock-jump (jump size x nodes jumping).
func heatMaps(reports []*results.Report) []decision.HeatMap {
	var out []decision.HeatMap
	if h, ok := failoverHeat(reports); ok {
		out = append(out, h)
	}
	if h, ok := clockJumpHeat(reports); ok {
		out = append(out, h)
	}
	return out
}

// lagBucket is the width of the lag rows, in ms.
const lagBucket = 10

// failoverHeat buckets the unguarded failover-loss trials by kill delay and by the
// promoted replica's drawn lag; the model: the lock is lost when that replica's pause
// outlasts the delay, so the boundary is lag = delay.
func failoverHeat(reports []*results.Report) (decision.HeatMap, bool) {
	cells := map[[2]float64]*decision.HeatCell{}
	var delays []float64
	for _, v := range results.Matching(reports, "failover-loss", []string{"none-delay-*"}) {
		for _, t := range v.Trials {
			lag, ok := t.Inputs["lag_promoted_ms"]
			if t.Outcome != results.Judged || !ok {
				continue
			}
			key := [2]float64{t.Inputs["delay_ms"], math.Floor(lag/lagBucket) * lagBucket}
			c := cells[key]
			if c == nil {
				c = &decision.HeatCell{X: key[0], Y: key[1]}
				cells[key] = c
				delays = append(delays, key[0])
			}
			c.N++
			if t.Counts[results.Violations] > 0 {
				c.K++
			}
		}
	}
	h := decision.HeatMap{Name: "adr-heat-failover-loss", Title: "Sentinel failover: two holders by kill delay and " +
		"replica lag",
		XLabel: "delay from grant to master kill (ms)", YLabel: "promoted replica's lag (ms, 10 ms rows)",
		Caption: "failover-loss, mode none: each cell is the judged trials at one kill delay whose promoted replica " +
			"drew a lag in that 10 ms row; k/n had two holders (colour: that share, pale yellow 0 to dark red 1; grey: no " +
			"trial). The dashed line is the model: the promoted replica lacks the key when its pause outlasts the delay (lag " +
			"> delay).",
		BoundaryLabel: "model: lag = delay"}
	h.Cells = sortedCells(cells)
	if !spansTwoByTwo(h.Cells) {
		return h, false
	}
	sort.Float64s(delays)
	top := 0.0
	for _, c := range h.Cells {
		top = max(top, c.Y+lagBucket/2) // a row's cell reaches half a row above its lag
	}
	lo, hi := delays[0], min(delays[len(delays)-1], top) // the line stays on the map
	h.Boundary = plotter.XYs{{X: lo, Y: lo}, {X: hi, Y: hi}}
	return h, true
}

// clockJumpHeat is redlock-clock-jump's k x J sweep with the boundary clocks/ computes
// from each k's measured median acquire and attempt times.
func clockJumpHeat(reports []*results.Report) (decision.HeatMap, bool) {
	cells := map[[2]float64]*decision.HeatCell{}
	acquire, attempt := map[int][]float64{}, map[int][]float64{}
	var ttl time.Duration
	for _, rep := range reports {
		if rep.Scenario != "redlock-clock-jump" {
			continue
		}
		for _, v := range rep.Variants {
			// The model is the race of a client that awaits every node (a fail-fast
			// client's SETs are still in flight when it returns).
			if !linked.Catalog().StrategyAwaitsEveryIndependentNode(v.Params["strategy"]) || v.Params["jump"] == "" {
				continue
			}
			k, errK := strconv.Atoi(v.Params["k"])
			j, errJ := time.ParseDuration(v.Params["jump"])
			t, errT := time.ParseDuration(v.Params["ttl"])
			if errK != nil || errJ != nil || errT != nil || v.Tally.Judged == 0 {
				continue
			}
			ttl = t
			key := [2]float64{float64(j) / 1e6, float64(k)}
			cells[key] = &decision.HeatCell{X: key[0], Y: key[1], K: v.Tally.Broke[results.Violations], N: v.Tally.Judged}
			for _, tr := range v.Trials {
				if a, ok := tr.Inputs["a_acquire_ms"]; ok {
					acquire[k] = append(acquire[k], a)
				}
				if b, ok := tr.Inputs["b_attempt_ms"]; ok {
					attempt[k] = append(attempt[k], b)
				}
			}
		}
	}
	h := decision.HeatMap{Name: "adr-heat-redlock-clock-jump", Title: "Redlock: two holders by clock jump and nodes " +
		"jumping", LogX: true,
		XLabel: "forward jump J (ms, log scale)", YLabel: "nodes of 5 jumping (k)",
		Caption: "redlock-clock-jump: k of A's five nodes jump forward J right after the grant; k/n judged trials " +
			"had two holders (colour: that share, pale yellow 0 to dark red 1; grey: no trial). The crosses are the smallest " +
			"breaking J the model (clocks.RaceShape) gives for each k with that k's measured median acquire and attempt " +
			"times; no cross: the model never breaks.",
		BoundaryLabel: "model: smallest J"}
	h.Cells = sortedCells(cells)
	if !spansTwoByTwo(h.Cells) {
		return h, false
	}
	var ks []int
	for k := range acquire {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	for _, k := range ks {
		a := msDuration(median(acquire[k]))
		shape := clocks.RaceShape{Nodes: 5, TTL: ttl, SetDelay: a / 2, Challenge: msDuration(median(attempt[k])), JumpAt: a}
		if j, ok := shape.SmallestBreakingJump(k); ok {
			h.Boundary = append(h.Boundary, plotter.XY{X: float64(j) / 1e6, Y: float64(k)})
		}
	}
	return h, true
}

func sortedCells(m map[[2]float64]*decision.HeatCell) []decision.HeatCell {
	out := make([]decision.HeatCell, 0, len(m))
	for _, c := range m {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Y != out[j].Y {
			return out[i].Y < out[j].Y
		}
		return out[i].X < out[j].X
	})
	return out
}

// spansTwoByTwo says the cells cover two columns and two rows at least: the least a
// heat map needs to show anything a table would not.
func spansTwoByTwo(cells []decision.HeatCell) bool {
	return distinctCount(cells, true) >= 2 && distinctCount(cells, false) >= 2
}

func distinctCount(cells []decision.HeatCell, x bool) int {
	seen := map[float64]bool{}
	for _, c := range cells {
		if x {
			seen[c.X] = true
		} else {
			seen[c.Y] = true
		}
	}
	return len(seen)
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}

func msDuration(ms float64) time.Duration { return time.Duration(ms * float64(time.Millisecond)) }
