package adr

import (
	"fmt"
	"math"
	"strconv"

	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/contention"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/stats"
)

// KeyCopiesModel is how a cell stands for a workload whose rate is too low to time in
// minutes: C independent copies of its keys at C times its rate give every key the
// workload's own arrivals and holds, so each request waits as the team's would; only
// the servers' total load and the clients' number are C times the team's. The lab
// checks it by pricing the same strategy at two copy counts: their p99s must agree.
const KeyCopiesModel = "key copies"

// CopiesOf is how many copies of the workload's keys an open-loop condition ran at
// the workload's own rate per copy, hold and TTL; 0 when it is no copy of them.
// One copy is the workload itself.
func CopiesOf(w *workload.Workload, c stats.Condition) int { return copiesOf(w, c, true) }

// UpdateCopiesOf is CopiesOf for an update cell, which holds no lock: its hold and TTL
// are not the workload's to match.
func UpdateCopiesOf(w *workload.Workload, c stats.Condition) int { return copiesOf(w, c, false) }

func copiesOf(w *workload.Workload, c stats.Condition, held bool) int {
	if !c.Open() || held && (c.Hold != w.HoldD || c.HoldDist != w.HoldDist || c.TTL != w.TTLD) {
		return 0
	}
	copies := 0
	n := w.Keys.Count
	switch {
	case w.Keys.Distribution == workload.Zipf && n > 1:
		keys, err := contention.ParseKeys(c.KeyDist, c.Keys)
		if err == nil && keys.Exponent() == w.Keys.ZipfExponent && c.Keys == n*keys.Copies() {
			copies = keys.Copies()
		}
	case c.KeyDist == "" && c.Keys == 1 && n == 1: // the one key: the workload itself
		copies = 1
	case c.KeyDist == "uniform" && c.Keys%n == 0:
		copies = c.Keys / n
	}
	if copies == 0 || math.Abs(c.TargetRate/float64(copies)-w.LockRate) > 0.05*w.LockRate {
		return 0
	}
	return copies
}

// CopiesCheck compares one strategy's p99 at two copy counts: the model holds when
// their 95% intervals overlap, and is unchecked when either has too few samples past
// its p99 to bound it.
type CopiesCheck struct {
	Copies, Other     int
	At, OtherAt       resultsdir.Summary
	Checked, Disagree bool
}

// copiesCheckOf is the check of group g (at copies) against the strategy's other open
// groups at another copy count; nil when there is none.
func copiesCheckOf(w *workload.Workload, g *stats.Group, copies int, others []*stats.Group,
	metric string) *CopiesCheck {
	held := metric != resultsdir.MetricUpdate
	for _, o := range others {
		n := copiesOf(w, o.Condition, held)
		if n == 0 || n == copies || o.Strategy != g.Strategy {
			continue
		}
		c := &CopiesCheck{Copies: copies, Other: n, At: pooled(g, metric), OtherAt: pooled(o, metric)}
		a, b := c.At, c.OtherAt
		c.Checked = a.P99High > 0 && b.P99High > 0
		c.Disagree = c.Checked && (a.P99Low > b.P99High || b.P99Low > a.P99High)
		return c
	}
	return nil
}

// pooled is the summary of g's metric when it ran once; a repeated group's first
// repeat stands for it (the plan runs each cell once).
func pooled(g *stats.Group, metric string) resultsdir.Summary {
	return g.Repeats[0].Latency[metric]
}

// Holds says the lab checked the model and did not contradict it.
func (c *CopiesCheck) Holds() bool { return c != nil && c.Checked && !c.Disagree }

// String says the check in one clause.
func (c *CopiesCheck) String() string {
	if c == nil {
		return "no cell at a second copy count checks it"
	}
	side := func(n int, s resultsdir.Summary) string {
		high := "unbounded above"
		if s.P99High > 0 {
			high = stats.FormatDuration(s.P99High.D())
		}
		return fmt.Sprintf("p99 %s (95%%: %s-%s, %s samples) at %d copies", stats.FormatDuration(s.P99.D()),
			stats.FormatDuration(s.P99Low.D()), high, strconv.FormatInt(s.Count, 10), n)
	}
	verdict := "the intervals overlap: the lab does not contradict it"
	switch {
	case !c.Checked:
		verdict = "too few samples past a p99 to check it"
	case c.Disagree:
		verdict = "the intervals do not overlap: the copy count changed the wait, so the model fails here"
	}
	return fmt.Sprintf("%s, %s: %s", side(c.Copies, c.At), side(c.Other, c.OtherAt), verdict)
}

// copiesHow is how a copies cell ran, in words, for the cost's How.
func copiesHow(w *workload.Workload, g *stats.Group, copies int, check *CopiesCheck) string {
	return fmt.Sprintf("open loop, poisson arrivals, %d copies of the workload's %s at %d x its rate (%s/s offered, "+
		"%s/s achieved, %s): the %s model, each key asked at the workload's own rate; checked: %s",
		copies, plural(w.Keys.Count, "key"), copies, stats.FormatRate(g.Condition.TargetRate),
		stats.FormatRate(g.AchievedRate()), plural(g.Condition.Clients, "client"), KeyCopiesModel, check)
}

// copiesPick is the strategy's open group that stands for the workload through two or
// more copies of its keys (the most samples first), with its check; nil when none does
// or a one-copy group (the workload itself) is there.
func copiesPick(w *workload.Workload, open []*stats.Group, metric string) (*stats.Group, int, *CopiesCheck) {
	var pick *stats.Group
	copies, held := 0, metric != resultsdir.MetricUpdate
	for _, g := range open {
		n := copiesOf(w, g.Condition, held)
		if n == 1 {
			return nil, 0, nil
		}
		if n > 1 && (pick == nil || pooled(g, metric).Count > pooled(pick, metric).Count) {
			pick, copies = g, n
		}
	}
	if pick == nil {
		return nil, 0, nil
	}
	return pick, copies, copiesCheckOf(w, pick, copies, open, metric)
}
