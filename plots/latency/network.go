package latency

import (
	"fmt"
	"sort"

	"gonum.org/v1/plot"
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
	keys, sets := byCondition(cells, closedWorkload)
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
		for _, strategy := range src.strategiesOf(groups) {
			if !measuredWithLatency(groups, strategy) {
				continue // a lone point at zero tells nothing about latency
			}
			all = append(all, againstNetLatency(plots.Series{Label: strategy, Strategy: strategy}, groups, metric, stats.P99))
		}
		p := plots.NewPlot(fmt.Sprintf("p99 %s latency vs injected latency: %s", metric, describe(cond)),
			"latency injected on every link, each direction (ms)", "")
		d, err := src.msAgainstX(p, fmt.Sprintf("p99 %s latency (ms)", metric), all, func(scale string) plots.Figure {
			return plots.Figure{
				Name: "network_" + workloadSlug(cond),
				Caption: fmt.Sprintf("p99 %s against the latency injected on every link (as configured; the measured added round "+
					"trip is in results.json), %s, closed loop%s.%s%s%s", metricLabel(metric), describe(cond), scale,
					spreadNote(groups), measuredNote(groups), noData(missing(groups, metric))),
			}
		})
		if err != nil {
			return nil, err
		}
		out = append(out, d)
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

// againstNetLatency fills sr with strategy's percentile p of metric (ms) in each group
// against the latency the group injected (ms), and each point's spread.
func againstNetLatency(sr plots.Series, groups []*stats.Group, metric string, p stats.Percentile) plots.Series {
	for _, g := range groups {
		if g.Strategy == sr.Strategy && g.HasLatency(metric) {
			y := plots.MS(float64(g.Latency(metric, p)))
			sr.Points = append(sr.Points, plotter.XY{X: plots.MS(float64(g.Condition.NetLatency)), Y: y})
			sr.Spread = append(sr.Spread, spreadOrPoint(latencySpread(g, metric, p))(y))
		}
	}
	return sr
}

// msAgainstX draws all on p, x ticked at the values measured and y in ms (log where
// they span decades), and names it with fig, which is given the scale's note.
func (s *source) msAgainstX(p *plot.Plot, yLabel string, all []plots.Series,
	fig func(scale string) plots.Figure) (plots.Drawn, error) {
	var ys []float64
	for _, sr := range all {
		for _, pt := range sr.Points {
			ys = append(ys, pt.Y)
		}
	}
	plots.MeasuredX(p, plots.XsOf(all))
	axes := plots.LogAxes{Y: plots.YScale(p, yLabel, ys)}
	legend, err := s.styles.Add(p, axes, all)
	if err != nil {
		return plots.Drawn{}, err
	}
	if axes.Y {
		plots.PadLog(&p.Y)
	}
	f := fig(scaleNote(axes.Y))
	f.Series, f.Looks = legend.Labels, legend.Looks
	return plots.Drawn{Figure: f, Plot: p}, nil
}
