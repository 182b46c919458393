package report

import (
	"fmt"
	"sort"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/capacity"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/stats"
)

// minDelivered is the share of the offered rate a cell must have achieved to count as
// keeping the budget: a generator that fell behind did not really offer that rate.
// maxFaultShare is the most errors or drops, as a share of requests, a kept rate or a
// priced cell may show. Both are the search's own thresholds.
const (
	minDelivered  = capacity.MinDelivered
	maxFaultShare = capacity.MaxFaultShare
)

// worstLatency is the highest of the repeats' percentiles: a rate is kept only if
// every repeat kept it.
func worstLatency(g *stats.Group, slo SLO) time.Duration {
	var worst time.Duration
	for _, c := range g.Repeats {
		worst = max(worst, slo.Percentile.Of(c.Latency[slo.Metric]))
	}
	return worst
}

// breaks says why an open-loop group did not keep the budget; empty when every repeat
// kept it. Nothing delivered is a break, not a pass.
func breaks(g *stats.Group, slo SLO, at time.Duration) string {
	rate := g.Condition.TargetRate
	if !g.HasLatency(slo.Metric) {
		return fmt.Sprintf("no %s latency recorded", slo.Metric)
	}
	if share, kind := capacity.Faults(g); share > maxFaultShare {
		return fmt.Sprintf("%s on %.2f%% of requests", kind, 100*share)
	}
	if at > slo.Budget {
		return fmt.Sprintf("%s %s", slo.Percentile, stats.FormatDuration(at))
	}
	for _, c := range g.Repeats {
		if c.Load.AchievedRate < capacity.MinAchieved(rate, c.Elapsed.D(), c.Load.Arrival == "poisson") {
			return fmt.Sprintf("achieved only %s/s", stats.FormatRate(c.Load.AchievedRate))
		}
	}
	return ""
}

// Capacity is the answer for one strategy under one open-loop workload.
type Capacity struct {
	Strategy  string
	Condition stats.Condition // target rate zeroed: the workload the rates were tried on
	Rates     int             // offered rates tried
	// Kept is the highest offered rate that kept the budget with every lower rate
	// also keeping it; 0 when even the lowest broke it.
	Kept     float64
	KeptAt   time.Duration // the percentile measured at Kept
	Broke    float64       // the lowest offered rate that broke it; 0 if none did
	BrokeAt  time.Duration
	BrokeWhy string
}

// Capacities answers, for each strategy and open-loop workload, the highest offered
// rate that kept the SLO.
func Capacities(stores *backend.Catalog, run *resultsdir.Run, slo SLO) []Capacity {
	type key struct {
		strategy string
		cond     stats.Condition
	}
	byKey := map[key][]*stats.Group{}
	var keys []key
	for _, g := range stats.Groups(stores, run) {
		if !g.Condition.Open() {
			continue
		}
		c := g.Condition
		c.TargetRate = 0
		k := key{g.Strategy, c}
		if _, ok := byKey[k]; !ok {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], g)
	}
	sort.SliceStable(keys, func(i, j int) bool {
		if ri, rj := stats.SafetyRank(stores, keys[i].strategy), stats.SafetyRank(stores, keys[j].strategy); ri != rj {
			return ri < rj
		}
		if keys[i].strategy != keys[j].strategy {
			return keys[i].strategy < keys[j].strategy
		}
		return keys[i].cond.Less(keys[j].cond)
	})
	var out []Capacity
	for _, k := range keys {
		groups := byKey[k]
		sort.SliceStable(groups,
			func(i, j int) bool { return groups[i].Condition.TargetRate < groups[j].Condition.TargetRate })
		c := Capacity{Strategy: k.strategy, Condition: k.cond, Rates: len(groups)}
		for _, g := range groups {
			rate := g.Condition.TargetRate
			at := worstLatency(g, slo)
			why := breaks(g, slo, at)
			if why != "" {
				c.Broke, c.BrokeAt, c.BrokeWhy = rate, at, why
				break
			}
			c.Kept, c.KeptAt = rate, at
		}
		out = append(out, c)
	}
	return out
}

// Sentence says a capacity answer in one line, for stdout and the report.
func (c Capacity) Sentence(slo SLO) string {
	where := fmt.Sprintf("%s (%d clients, %d keys, %s, %s arrivals)", c.Strategy, c.Condition.Clients, c.Condition.Keys,
		c.Condition.NetworkLabel(), c.Condition.Arrival)
	switch {
	case c.Kept == 0:
		return fmt.Sprintf("%s: no offered rate tried kept %s; the lowest, %s/s, gave %s",
			where, slo, stats.FormatRate(c.Broke), c.BrokeWhy)
	case c.Broke == 0:
		return fmt.Sprintf(
			"%s: at least %s/s: every rate tried kept %s (%s at the highest); the limit lies beyond the rates measured",
			where, stats.FormatRate(c.Kept), slo, stats.FormatDuration(c.KeptAt))
	}
	return fmt.Sprintf("%s: %s/s (%s %s there); %s/s broke it (%s)",
		where, stats.FormatRate(c.Kept), slo.Percentile, stats.FormatDuration(c.KeptAt), stats.FormatRate(c.Broke),
		c.BrokeWhy)
}
