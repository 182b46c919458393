package latency

import (
	"fmt"
	"sort"

	"gonum.org/v1/plot/plotter"

	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/stats"
)

// networkFigures draws p99 latency against the latency injected on every link, one
// line per strategy, per closed-loop workload that was measured at several latencies.
func networkFigures(src *source) ([]plots.Drawn, error) {
	cells := src.where(func(g *stats.Group) bool {
		return !g.Condition.Open() && (g.Condition.Network == "none" || g.Condition.Network == "uniform")
	})
	workload := func(c stats.Condition) stats.Condition {
		return stats.Condition{Clients: c.Clients, Keys: c.Keys, Hold: c.Hold, TTL: c.TTL}
	}
	keys, sets := byCondition(cells, workload)
	var out []plots.Drawn
	for _, cond := range keys {
		groups := sets[cond]
		var xs []float64
		uniform := false
		for _, g := range groups {
			xs = append(xs, plots.MS(float64(g.Condition.NetLatency)))
			uniform = uniform || g.Condition.Network == "uniform"
		}
		if !uniform || plots.Distinct(xs) < 2 {
			continue
		}
		metric := stats.LatencyMetric(groups)
		var all []plots.Series
		var ys []float64
		for _, strategy := range strategiesOf(groups) {
			if !measuredWithLatency(groups, strategy) {
				continue // a lone point at zero tells nothing about latency
			}
			sr := plots.Series{Label: strategy, Strategy: strategy}
			for _, g := range groups {
				if g.Strategy == strategy && g.HasLatency(metric) {
					y := plots.MS(float64(g.Latency(metric, stats.P99)))
					sr.Points = append(sr.Points, plotter.XY{X: plots.MS(float64(g.Condition.NetLatency)), Y: y})
					sr.Spread = append(sr.Spread, spreadOrPoint(latencySpread(g, metric, stats.P99))(y))
					ys = append(ys, y)
				}
			}
			all = append(all, sr)
		}
		p := plots.NewPlot(fmt.Sprintf("p99 %s latency vs injected latency: %s", metric, describe(cond)),
			"latency injected on every link, each direction (ms)", "")
		plots.MeasuredX(p, plots.XsOf(all))
		axes := plots.LogAxes{Y: plots.YScale(p, fmt.Sprintf("p99 %s latency (ms)", metric), ys)}
		legend, err := src.styles.Add(p, axes, all)
		if err != nil {
			return nil, err
		}
		if axes.Y {
			plots.PadLog(&p.Y)
		}
		out = append(out, plots.Drawn{Figure: plots.Figure{
			Name:    "network_" + slug(fmt.Sprintf("clients=%d", cond.Clients), fmt.Sprintf("keys=%d", cond.Keys), "hold="+cond.Hold.String(), "ttl="+cond.TTL.String()),
			Caption: fmt.Sprintf("p99 %s against the latency injected on every link (as configured; the measured added round trip is in results.json), %s, closed loop%s.%s%s%s", metricLabel(metric), describe(cond), scaleNote(axes.Y), spreadNote(groups), measuredNote(groups), noData(missing(groups, metric))),
			Series:  legend.Labels,
			Looks:   legend.Looks,
		}, Plot: p})
	}
	return out, nil
}

// measuredNote quotes the added round trip the proxies really produced, so the reader
// can tell the configured delay from the achieved one.
func measuredNote(groups []*stats.Group) string {
	type pair struct{ asked, got resultsdir.Duration }
	var pairs []pair
	seen := map[resultsdir.Duration]bool{}
	for _, g := range groups {
		c := g.Repeats[0]
		if c.Network.Latency == 0 || seen[c.Network.Latency] || len(c.Network.MeasuredAddedRTT) == 0 {
			continue
		}
		seen[c.Network.Latency] = true
		var rtts []float64
		for _, d := range c.Network.MeasuredAddedRTT {
			rtts = append(rtts, float64(d))
		}
		pairs = append(pairs, pair{c.Network.Latency, resultsdir.Duration(stats.Median(rtts))})
	}
	if len(pairs) == 0 {
		return ""
	}
	sort.Slice(pairs, func(i, j int) bool { return pairs[i].asked < pairs[j].asked })
	s := " Measured added round trip (median over nodes):"
	for i, p := range pairs {
		if i > 0 {
			s += ","
		}
		s += fmt.Sprintf(" %s asked, %s measured", p.asked, stats.FormatDuration(p.got.D()))
	}
	return s + "."
}

// measuredWithLatency says whether a strategy has a cell with injected latency.
func measuredWithLatency(groups []*stats.Group, strategy string) bool {
	for _, g := range groups {
		if g.Strategy == strategy && g.Condition.Network == "uniform" {
			return true
		}
	}
	return false
}
