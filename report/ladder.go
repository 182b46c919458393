package report

import (
	"fmt"
	"strings"

	"github.com/lockbench/lockbench/capacity"
	"github.com/lockbench/lockbench/stats"
)

// rung is one step up in safety and, in words, what it buys.
type rung struct {
	strategy string
	adds     string
}

// ladder is the order in which a team pays for guarantees; a run holds some of it.
var ladder = []rung{
	{"single", "one Redis master; the lock dies with it"},
	{"wait", "the key reached a replica (`WAIT`) before the lock is granted"},
	{"redlock", "a majority of independent masters must grant the key"},
	{"etcd", "Raft consensus, with a revision usable as a fencing token"},
	{"etcd-3", "a consensus group of several members: survives losing a minority"},
}

// step is the measured cost of one step up the ladder, in one condition.
type step struct {
	from, to *stats.Group
	adds     string
}

// referenceCondition picks the closed-loop condition without injected latency that
// holds most of the ladder, preferring (as asked) contended or uncontended cells, then
// the fewest clients above one: servers work in parallel, yet queueing on a small
// machine does not drown the cost of the protocol. Every ratio of a reading comes
// from these cells.
func referenceCondition(groups []*stats.Group, contended bool, metric string) (stats.Condition, bool) {
	count := map[stats.Condition]int{}
	var order []stats.Condition
	onLadder := map[string]bool{}
	for _, r := range ladder {
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
	return best, found && count[best] >= 2
}

// steps lists consecutive rungs measured under cond.
func steps(groups []*stats.Group, cond stats.Condition, metric string) []step {
	var present []*stats.Group
	var adds []string
	for _, r := range ladder {
		for _, g := range groups {
			if g.Condition == cond && g.Strategy == r.strategy && priced(g, metric) {
				present = append(present, g)
				adds = append(adds, r.adds)
				break
			}
		}
	}
	var out []step
	for i := 1; i < len(present); i++ {
		out = append(out, step{from: present[i-1], to: present[i], adds: adds[i] + stepMarks(present[i-1], present[i])})
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
