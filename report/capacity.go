package report

import (
	"fmt"
	"sort"
	"time"

	"github.com/lockbench/lockbench/report/digest"
	"github.com/lockbench/lockbench/resultsdir"
)

// minDelivered is the share of the offered rate a cell must have achieved to count as
// keeping the budget: a generator that fell behind did not really offer that rate.
const minDelivered = 0.95

// Capacity is the answer for one strategy under one open-loop workload.
type Capacity struct {
	Strategy  string
	Condition digest.Condition // target rate zeroed: the workload the rates were tried on
	Rates     int              // offered rates tried
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
func Capacities(run *resultsdir.Run, slo SLO) []Capacity {
	type key struct {
		strategy string
		cond     digest.Condition
	}
	byKey := map[key][]*digest.Group{}
	var keys []key
	for _, g := range digest.Groups(run) {
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
		if ri, rj := digest.SafetyRank(keys[i].strategy), digest.SafetyRank(keys[j].strategy); ri != rj {
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
		sort.SliceStable(groups, func(i, j int) bool { return groups[i].Condition.TargetRate < groups[j].Condition.TargetRate })
		c := Capacity{Strategy: k.strategy, Condition: k.cond, Rates: len(groups)}
		for _, g := range groups {
			rate := g.Condition.TargetRate
			at := g.Latency(slo.Metric, slo.Percentile)
			var why string
			switch {
			case !g.HasLatency(slo.Metric):
				why = fmt.Sprintf("no %s latency recorded", slo.Metric)
			case at > slo.Budget:
				why = fmt.Sprintf("%s %s", slo.Percentile, digest.FormatDuration(at))
			case g.AchievedRate() > 0 && g.AchievedRate() < minDelivered*rate:
				why = fmt.Sprintf("achieved only %s/s", digest.FormatRate(g.AchievedRate()))
			}
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
			where, slo, digest.FormatRate(c.Broke), c.BrokeWhy)
	case c.Broke == 0:
		return fmt.Sprintf("%s: at least %s/s: every rate tried kept %s (%s at the highest); the limit lies beyond the rates measured",
			where, digest.FormatRate(c.Kept), slo, digest.FormatDuration(c.KeptAt))
	}
	return fmt.Sprintf("%s: %s/s (%s %s there); %s/s broke it (%s)",
		where, digest.FormatRate(c.Kept), slo.Percentile, digest.FormatDuration(c.KeptAt), digest.FormatRate(c.Broke), c.BrokeWhy)
}
