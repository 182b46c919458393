package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/stats"
)

// writeReading states, from measured cells only, what each step up in safety costs,
// what injected latency and a slow Redlock node did.
func writeReading(b *strings.Builder, stores *backend.Catalog, groups []*stats.Group, metric string) {
	b.WriteString("## Reading the numbers\n\n")
	wrote := false
	for _, contended := range []bool{false, true} {
		cond, ok := referenceCondition(stores, groups, contended, metric)
		if !ok {
			continue
		}
		wrote = true
		writeLadder(b, stores, groups, cond, contended, metric)
	}
	if !wrote {
		fmt.Fprintf(b, "The run holds no closed-loop condition without injected latency measured for two strategies "+
			"of the safety ladder (%s): no step in safety can be priced from it.\n\n", ladderWords(stores))
	}
	writeNeverAcquired(b, groups)
	writeNetworkReading(b, groups, metric)
	writeSlowNodeReading(b, groups, metric)
}

// writeNeverAcquired lists the cells where a strategy granted no lock at all: a
// finding in itself (livelock under contention, a dead topology), and a reason those
// cells are missing from every ratio and figure.
func writeNeverAcquired(b *strings.Builder, groups []*stats.Group) {
	var rows []string
	for _, g := range groups {
		var attempts, granted, refused, errs int64
		for _, c := range g.Repeats {
			attempts += c.Attempts
			granted += c.Granted
			refused += c.Refused
			for _, n := range c.Errors {
				errs += n
			}
		}
		if granted > 0 {
			continue
		}
		c := g.Condition
		rows = append(rows, fmt.Sprintf("| `%s` | %d | %d | %s, %s | %d | %d | %d |", g.Strategy, c.Clients, c.Keys,
			c.NetworkLabel(), c.LoadLabel(), attempts, refused, errs))
	}
	writeTable(b, "### Cells where no lock was ever acquired\n\n",
		"These cells granted nothing in their measured time (summed over repeats); they are left out of the ratios above "+
			"and of the figures.\n\n",
		"| strategy | clients | keys | condition | attempts | refused | errors |\n|---|---:|---:|---|---:|---:|---:|\n", rows)
}

func writeLadder(b *strings.Builder, stores *backend.Catalog, groups []*stats.Group, cond stats.Condition,
	contended bool, metric string) {
	st := steps(stores, groups, cond, metric)
	kind := "Without contention"
	if contended {
		kind = "Under contention"
	}
	fmt.Fprintf(b, "### %s: the cost of each step up in safety\n\n", kind)
	fmt.Fprintf(b, "Ratios of the cells `%s` (one per strategy: %s, hold %s, TTL %s, no injected latency, closed loop). "+
		"Latency is the %s; a ratio above 1× costs latency, a throughput ratio below 1× costs capacity.\n\n",
		strings.Replace(st[0].from.Name, "strategy="+st[0].from.Strategy, "strategy=*", 1), plural(cond.Clients, "client")+
			" on "+plural(cond.Keys, "key"), cond.Hold, cond.TTL, metricWords(metric))
	b.WriteString("| step | what it adds | p50 | p99 | p99.9 | cycles/s |\n|---|---|---:|---:|---:|---:|\n")
	for _, s := range st {
		fmt.Fprintf(b, "| `%s` → `%s` | %s | %s | %s | %s | %s |\n", s.from.Strategy, s.to.Strategy, s.adds,
			latencyRatio(s.from, s.to, metric, stats.P50), latencyRatio(s.from, s.to, metric, stats.P99),
			latencyRatio(s.from, s.to, metric, stats.P999),
			fmt.Sprintf("%s (%s → %s)", ratio(s.from.Throughput(), s.to.Throughput()), stats.FormatRate(s.from.Throughput()),
				stats.FormatRate(s.to.Throughput())))
	}
	b.WriteString("\n")
	var main []step
	for _, s := range st {
		if !s.side {
			main = append(main, s)
		}
	}
	if len(main) > 1 {
		first, last := main[0].from, main[len(main)-1].to
		fmt.Fprintf(b, "From `%s` to `%s` in all: p50 %s and p99 %s the latency, %s the throughput.\n\n", first.Strategy,
			last.Strategy,
			ratio(float64(first.Latency(metric, stats.P50)), float64(last.Latency(metric, stats.P50))),
			ratio(float64(first.Latency(metric, stats.P99)), float64(last.Latency(metric, stats.P99))),
			ratio(first.Throughput(), last.Throughput()))
	}
}

func latencyRatio(from, to *stats.Group, metric string, p stats.Percentile) string {
	a, z := from.Latency(metric, p), to.Latency(metric, p)
	return fmt.Sprintf("%s (%s → %s)", ratio(float64(a), float64(z)), stats.FormatDuration(a), stats.FormatDuration(z))
}

// writeNetworkReading prices injected latency: how much p99 grew per injected
// millisecond, a count of round trips on the critical path.
func writeNetworkReading(b *strings.Builder, groups []*stats.Group, metric string) {
	type line struct {
		strategy    string
		cond        stats.Condition
		base, worst *stats.Group
	}
	lines := map[string]*line{}
	var order []string
	for _, g := range groups {
		c := g.Condition
		if c.Open() || (c.Network != "none" && c.Network != "uniform") || c.Jitter != 0 {
			continue
		}
		k := fmt.Sprintf("%s/%d/%d/%s/%s", g.Strategy, c.Clients, c.Keys, c.Hold, c.TTL)
		l, ok := lines[k]
		if !ok {
			l = &line{strategy: g.Strategy, cond: c}
			lines[k] = l
			order = append(order, k)
		}
		if c.Network == "none" {
			l.base = g
		} else if l.worst == nil || c.NetLatency > l.worst.Condition.NetLatency {
			l.worst = g
		}
	}
	var rows []string
	for _, k := range order {
		l := lines[k]
		if l.base == nil || l.worst == nil || !l.base.HasLatency(metric) || !l.worst.HasLatency(metric) {
			continue
		}
		added := l.worst.Latency(metric, stats.P99) - l.base.Latency(metric, stats.P99)
		per := float64(added) / float64(l.worst.Condition.NetLatency)
		rows = append(rows, fmt.Sprintf("| `%s` | %d | %d | %s | %s | %s | %.1f |", l.strategy, l.cond.Clients, l.cond.Keys,
			stats.FormatDuration(l.base.Latency(metric, stats.P99)), l.worst.Condition.NetLatency,
			stats.FormatDuration(l.worst.Latency(metric, stats.P99)), per))
	}
	writeTable(b, "### Injected network latency\n\n",
		"How much p99 grew per millisecond injected on every link, between the cell without injected latency and the one "+
			"with the most (closed loop, same clients and keys). It counts how many injected delays lie on the critical path "+
			"of one acquire.\n\n",
		"| strategy | clients | keys | p99, none | injected | p99 there | ms of p99 per injected ms "+
			"|\n|---|---:|---:|---:|---:|---:|---:|\n", rows)
}

// writeSlowNodeReading compares the strategies measured with one slow node (Redlock's)
// against the same strategy without injected latency.
func writeSlowNodeReading(b *strings.Builder, groups []*stats.Group, metric string) {
	base := map[string]*stats.Group{}
	key := func(g *stats.Group) string {
		c := g.Condition
		return fmt.Sprintf("%s/%d/%d/%s/%s", g.Strategy, c.Clients, c.Keys, c.Hold, c.TTL)
	}
	var slow []*stats.Group
	slowed := stats.SlowNodeStrategies(groups)
	for _, g := range groups {
		if !slowed[g.Strategy] || g.Condition.Open() {
			continue
		}
		switch g.Condition.Network {
		case "none":
			base[key(g)] = g
		case "one-slow":
			slow = append(slow, g)
		}
	}
	if len(slow) == 0 {
		return
	}
	sort.SliceStable(slow, func(i, j int) bool {
		if slow[i].Condition.NetLatency != slow[j].Condition.NetLatency {
			return slow[i].Condition.NetLatency < slow[j].Condition.NetLatency
		}
		return slow[i].Strategy < slow[j].Strategy
	})
	b.WriteString("### One slow node\n\n")
	b.WriteString("p99 with one node slowed, against the same strategy with no injected latency (closed loop; the " +
		"strategies measured with one slow node, Redlock's).\n\n")
	b.WriteString("| strategy | clients | keys | slow node | added | p99 | p99 without | ratio " +
		"|\n|---|---:|---:|---|---:|---:|---:|---:|\n")
	for _, g := range slow {
		c := g.Condition
		if !g.HasLatency(metric) {
			continue
		}
		p99 := g.Latency(metric, stats.P99)
		without, ratioText := "–", "–"
		if bg, ok := base[key(g)]; ok && bg.HasLatency(metric) {
			w := bg.Latency(metric, stats.P99)
			without, ratioText = stats.FormatDuration(w), ratio(float64(w), float64(p99))
		}
		fmt.Fprintf(b, "| `%s` | %d | %d | %s | %s | %s | %s | %s |\n", g.Strategy, c.Clients, c.Keys, c.SlowNode,
			c.NetLatency,
			stats.FormatDuration(p99), without, ratioText)
	}
	b.WriteString("\n")
}

func writeCapacity(b *strings.Builder, stores *backend.Catalog, run *resultsdir.Run, slo SLO) {
	fmt.Fprintf(b, "## Capacity: the highest offered rate that kept %s\n\n", slo)
	caps := Capacities(stores, run, slo)
	if len(caps) == 0 {
		b.WriteString(
			"This run holds no open-loop cells, so no offered rate can be read. Run with open-loop load to answer it.\n\n")
		return
	}
	fmt.Fprintf(b, "Read from open-loop cells: a rate keeps the budget when the %s of `%s` stayed at or under %s and "+
		"the generator delivered at least %.0f%% of the offered rate; a rate counts only if every lower rate tried kept it "+
		"too. Capacity lies between the last rate kept and the first broken; measure finer rates in between for a tighter "+
		"answer.\n\n",
		slo.Percentile, slo.Metric, stats.FormatDuration(slo.Budget), 100*minDelivered)
	for _, c := range caps {
		fmt.Fprintf(b, "- %s\n", c.Sentence(slo))
	}
	b.WriteString("\n")
}

// plural writes "1 key", "8 keys".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
