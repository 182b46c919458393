package adr

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"time"

	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/report"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/stats"
)

// Cost is what an option costs at the workload's rate, read from benchmark cells.
type Cost struct {
	Measured       bool
	Why            string // not measured: why
	Cell           string // the group priced
	How            string // how that cell ran, in words
	P50, P99, P999 time.Duration
	AtBudget       time.Duration // the budget's percentile
	// AttemptAtBudget is one attempt's latency at the budget's percentile, when the
	// budget is on acquire (attempts and waiting for the holder) and the cell recorded
	// attempts; 0 otherwise. It tells the lock service's cost from the queue's.
	AttemptAtBudget time.Duration
	Within          bool // AtBudget within the budget, at the workload's rate
	// Capacity is the highest open-loop rate that kept the budget (report.Capacities)
	// under the priced cell's condition; empty without open-loop cells.
	Capacity    string
	KeptRate    float64
	HasCapacity bool
	Servers     int // processes in the deployment measured; 0 unknown
	// Copies is how many copies of the workload's keys the priced cell ran (0 or 1:
	// the workload itself), through the key-copies model whose check held.
	Copies      int
	CopiesCheck *CopiesCheck
	// NoCapacity says why a cost timed at the workload's load reads no capacity.
	NoCapacity string
	// NoLockService: a lock-free way, no servers beyond the store every option writes to.
	NoLockService bool
	Deployment    string // as the run recorded it
}

// costOf prices strategy s (its update cells when updates, else its lock cells) at the
// workload's rate: the open-loop group (no injected latency) whose offered rate is
// nearest to it, else the closed-loop group with the lowest throughput at or above it.
func costOf(w *workload.Workload, run *resultsdir.Run, groups []*stats.Group, s string, updates bool) Cost {
	if s == "" {
		return Cost{Why: "no benchmark cell"}
	}
	metric := w.SLO.Metric
	var open, closed []*stats.Group
	for _, g := range groups {
		// A lock is priced by its lock cycles, a lock-free way by its update cells.
		if g.Strategy != s || g.Condition.Network != "none" || g.Repeats[0].IsUpdate() != updates {
			continue
		}
		m := metric
		if g.Repeats[0].IsUpdate() {
			m = resultsdir.MetricUpdate
		}
		if !g.HasLatency(m) {
			continue
		}
		if g.Condition.Open() {
			open = append(open, g)
		} else {
			closed = append(closed, g)
		}
	}
	c := Cost{Deployment: run.Environment.Topologies[s]}
	c.Servers = servers(c.Deployment)
	var pick *stats.Group
	lowest := math.Inf(1)
	for _, g := range open {
		lowest = min(lowest, g.Condition.TargetRate)
	}
	m := metric
	if updates {
		m = resultsdir.MetricUpdate // an update cell times one whole update
	}
	stand, copies, check := copiesPick(w, open, m)
	switch {
	case stand != nil && !check.Holds():
		c.Why = fmt.Sprintf("its cell ran %d copies of the workload's keys, and the %s model behind it is not checked: %s",
			copies, KeyCopiesModel, check)
		return c
	case stand != nil:
		pick, c.Copies, c.CopiesCheck, c.How = stand, copies, check, copiesHow(w, stand, copies, check)
	case len(open) > 0 && lowest <= w.LockRate:
		best := math.Inf(1)
		for _, g := range open {
			if d := math.Abs(math.Log(g.Condition.TargetRate / w.LockRate)); d < best {
				best, pick = d, g
			}
		}
		c.How = fmt.Sprintf("open loop, %s arrivals offered %s/s (achieved %s/s), %s, %s",
			pick.Condition.Arrival, stats.FormatRate(pick.Condition.TargetRate), stats.FormatRate(pick.AchievedRate()),
			plural(pick.Condition.Clients, "client"), plural(pick.Condition.Keys, "key"))
	case len(closed) > 0:
		// Below every offered rate (or without open loop): the least loaded closed-loop
		// cell that still served the rate stands for it.
		most := 0.0
		for _, g := range closed {
			tp := g.Throughput()
			most = max(most, tp)
			if tp >= w.LockRate && (pick == nil || lessLoaded(g, pick)) {
				pick = g
			}
		}
		if pick == nil {
			c.Why = fmt.Sprintf("no cell reached %s/s (the most: %s/s, closed loop)", stats.FormatRate(w.LockRate),
				stats.FormatRate(most))
			return c
		}
		why := "no open-loop cell"
		if len(open) > 0 {
			why = fmt.Sprintf("every open-loop rate tried was above %s/s", stats.FormatRate(w.LockRate))
		}
		c.How = fmt.Sprintf("closed loop (%s), %s, %s: %s cycles/s",
			why, plural(pick.Condition.Clients, "client"), plural(pick.Condition.Keys, "key"),
			stats.FormatRate(pick.Throughput()))
	default:
		c.Why = "no benchmark cell without injected latency"
		return c
	}
	c.Measured, c.Cell = true, pick.Name
	c.P50, c.P99, c.P999 = pick.Latency(m, stats.P50), pick.Latency(m, stats.P99), pick.Latency(m, stats.P999)
	c.AtBudget = pick.Latency(m, w.SLO.Percentile)
	if m == resultsdir.MetricAcquire && pick.HasLatency(resultsdir.MetricAttempt) {
		c.AttemptAtBudget = pick.Latency(resultsdir.MetricAttempt, w.SLO.Percentile)
	}
	c.Within = c.AtBudget <= w.SLO.Budget // closed loop: the cell served at least the rate
	switch {
	case c.Copies > 1: // within as timed: a capacity over copies would be C times the team's
		c.NoCapacity = fmt.Sprintf("timed at the workload's load through %d copies of its keys", c.Copies)
		return c
	case updates && pick.Condition.Open(): // within as timed: update cells sweep no rates
		c.NoCapacity = "timed at the workload's rate, one open-loop update cell"
		return c
	}
	cond := pick.Condition
	cond.TargetRate = 0
	for _, cp := range report.Capacities(linked.Catalog(), run, w.SLO) {
		// The priced condition's own answer wins; else the strategy's first one.
		if cp.Strategy == s && (!c.HasCapacity || cp.Condition == cond) {
			c.HasCapacity, c.KeptRate, c.Capacity = true, cp.Kept, cp.Sentence(w.SLO)
		}
		if cp.Strategy == s && cp.Condition == cond {
			break
		}
	}
	if pick.Condition.Open() {
		// Open loop: within only if a rate at or above the workload's kept the budget.
		c.Within = c.HasCapacity && c.KeptRate >= w.LockRate
	}
	return c
}

// lessLoaded orders closed-loop cells: fewer clients, then uncontended (a key per
// client), then the lower throughput.
func lessLoaded(a, b *stats.Group) bool {
	if a.Condition.Clients != b.Condition.Clients {
		return a.Condition.Clients < b.Condition.Clients
	}
	if ua, ub := !a.Condition.Contended(), !b.Condition.Contended(); ua != ub {
		return ua
	}
	return a.Throughput() < b.Throughput()
}

var serverCount = regexp.MustCompile(`(\d+) (master|replica|sentinel)`)

// servers adds up the processes a recorded deployment names ("1 master(s), 2
// replica(s), 3 sentinel(s)" is 6); 0 when it names none.
func servers(deployment string) int {
	n := 0
	for _, m := range serverCount.FindAllStringSubmatch(deployment, -1) {
		v, _ := strconv.Atoi(m[1])
		n += v
	}
	return n
}
