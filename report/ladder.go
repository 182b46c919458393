package report

import (
	"fmt"
	"strings"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/capacity"
	"github.com/lockbench/lockbench/stats"
)

// rung is one step up in safety and, in words, what it buys. A rung with a from is
// a side step priced against that strategy alone (another deployment of the same
// protocol), not a step of the main line.
type rung struct {
	strategy string
	adds     string
	from     string
}

// ladder is the order in which a team pays for guarantees; a run holds some of it.
// Each store of stores declares its strategies' steps (backend.Rung), listed by position.
func ladder(stores *backend.Catalog) []rung {
	var out []rung
	for _, st := range stores.Strategies() {
		if st.Ladder != nil {
			out = append(out, rung{strategy: st.Name, adds: st.Ladder.Adds, from: st.Ladder.From})
		}
	}
	return out
}

// ladderWords names the ladder's strategies for a reader: the main line, then each
// side step beside its base ("single, wait; cluster beside single").
func ladderWords(stores *backend.Catalog) string {
	var main, side []string
	for _, r := range ladder(stores) {
		if r.from == "" {
			main = append(main, r.strategy)
		} else {
			side = append(side, r.strategy+" beside "+r.from)
		}
	}
	words := strings.Join(main, ", ")
	if len(side) > 0 {
		words += "; " + strings.Join(side, ", ")
	}
	return words
}

// step is the measured cost of one step up the ladder, in one condition.
type step struct {
	from, to *stats.Group
	adds     string
	side     bool // priced against its rung's from, off the main line
}

// referenceCondition picks the closed-loop condition without injected latency that
// holds most of the ladder, preferring (as asked) contended or uncontended cells, then
// the fewest clients above one: servers work in parallel, yet queueing on a small
// machine does not drown the cost of the protocol. Every ratio of a reading comes
// from these cells.
func referenceCondition(stores *backend.Catalog, groups []*stats.Group, contended bool,
	metric string) (stats.Condition, bool) {
	count := map[stats.Condition]int{}
	var order []stats.Condition
	onLadder := map[string]bool{}
	for _, r := range ladder(stores) {
		onLadder[r.strategy] = true
	}
	for _, g := range groups {
		c := g.Condition
		if c.Open() || c.Network != "none" || c.Contended() != contended || !onLadder[g.Strategy] || !priced(g, metric) {
			continue
		}
		if _, ok := count[c]; !ok {
			order = append(order, c)
		}
		count[c]++
	}
	var best stats.Condition
	found := false
	for _, c := range order {
		switch {
		case !found, count[c] > count[best], count[c] == count[best] && concurrencyRank(c) < concurrencyRank(best):
			best, found = c, true
		}
	}
	return best, found && count[best] >= 2 && len(steps(stores, groups, best, metric)) > 0
}

// steps lists consecutive rungs of the main line measured under cond, then each
// side step whose strategy and base were both measured under it.
func steps(stores *backend.Catalog, groups []*stats.Group, cond stats.Condition, metric string) []step {
	measured := func(strategy string) *stats.Group {
		for _, g := range groups {
			if g.Condition == cond && g.Strategy == strategy && priced(g, metric) {
				return g
			}
		}
		return nil
	}
	var out []step
	var prev *stats.Group
	rungs := ladder(stores)
	for _, r := range rungs {
		g := measured(r.strategy)
		if g == nil || r.from != "" {
			continue
		}
		if prev != nil {
			out = append(out, step{from: prev, to: g, adds: r.adds + stepMarks(prev, g)})
		}
		prev = g
	}
	for _, r := range rungs {
		if r.from == "" {
			continue
		}
		if g, base := measured(r.strategy), measured(r.from); g != nil && base != nil {
			out = append(out, step{from: base, to: g, adds: r.adds + stepMarks(base, g), side: true})
		}
	}
	return out
}

// stepMarks flags a step whose ratios come from a cell with errors above
// maxFaultShare: failing fast can look cheap.
func stepMarks(from, to *stats.Group) string {
	var marks []string
	for _, g := range []*stats.Group{from, to} {
		if m := capacity.FaultMark(g); m != "" {
			marks = append(marks, fmt.Sprintf("`%s` %s", g.Strategy, m))
		}
	}
	if len(marks) == 0 {
		return ""
	}
	return " (" + strings.Join(marks, "; ") + " of requests: read its ratios with care)"
}

// ratio formats b/a as "2.86×", or "n/a" when a is zero.
func ratio(a, b float64) string {
	if a == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f×", b/a)
}

// priced says whether a group measured anything a ratio can be taken of: some lock
// acquired, so latency and throughput are not zero by absence.
func priced(g *stats.Group, metric string) bool {
	return g.HasLatency(metric) && g.Throughput() > 0
}

// concurrencyRank orders client counts 2, 3, ... 64, then 1.
func concurrencyRank(c stats.Condition) int {
	if c.Clients > 1 {
		return c.Clients
	}
	return int(^uint(0) >> 1)
}
