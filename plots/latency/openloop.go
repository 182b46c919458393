package latency

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/lockbench/lockbench/capacity"
	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/stats"
)

// saturatedLabel names, in the legend, the ring around a point whose offered rate
// was not served.
const saturatedLabel = "ringed: saturated"

// openLoopFigures draws p99 latency against the offered rate of open-loop cells, one
// line per strategy: where the line turns up is the rate at which a queue builds.
func openLoopFigures(src *source) ([]plots.Drawn, error) {
	cells := src.where(func(g *stats.Group) bool { return g.Condition.Open() })
	workload := func(c stats.Condition) stats.Condition {
		c.TargetRate = 0
		return c
	}
	keys, sets := byCondition(cells, workload)
	var out []plots.Drawn
	for i, cond := range keys {
		groups := sets[cond]
		var xs []float64
		for _, g := range groups {
			xs = append(xs, g.Condition.TargetRate)
		}
		if plots.Distinct(xs) < 2 {
			continue
		}
		metric := stats.LatencyMetric(groups)
		var all []plots.Series
		var short plotter.XYs
		for _, strategy := range src.strategiesOf(groups) {
			sr := plots.Series{Label: strategy, Strategy: strategy}
			for _, g := range groups {
				if g.Strategy == strategy && g.HasLatency(metric) {
					pt := plotter.XY{X: g.Condition.TargetRate, Y: plots.MS(float64(g.Latency(metric, stats.P99)))}
					sr.Points = append(sr.Points, pt)
					sr.Spread = append(sr.Spread, spreadOrPoint(latencySpread(g, metric, stats.P99))(pt.Y))
					if saturated(g) {
						short = append(short, pt)
					}
				}
			}
			all = append(all, sr)
		}
		p := plots.NewPlot(fmt.Sprintf("Open loop: p99 %s latency against offered rate, %s", metric, describe(cond)),
			"offered rate (requests per second)", fmt.Sprintf("p99 %s latency (ms, log scale)", metric))
		plots.MeasuredX(p, xs)
		p.Y.Tick.Marker = plots.LogTicks{}
		axes := plots.LogAxes{Y: true}
		legend, err := src.styles.Add(p, axes, all)
		if err != nil {
			return nil, err
		}
		if len(short) > 0 {
			if err := ringSaturated(p, plots.Log10XY(short, axes.X, axes.Y)); err != nil {
				return nil, err
			}
			legend.Add(saturatedLabel, plots.SaturatedLook)
		}
		plots.PadLog(&p.Y)
		name := "open-loop"
		if len(keys) > 1 {
			name = fmt.Sprintf("open-loop-%d_%s", i+1,
				slug(fmt.Sprintf("clients=%d", cond.Clients), fmt.Sprintf("keys=%d", cond.Keys)))
		}
		out = append(out, plots.Drawn{Figure: plots.Figure{
			Name: name,
			Caption: fmt.Sprintf("Open loop (%s arrivals): p99 %s against the offered rate, %s, %s. Where a line turns up, "+
				"requests arrive faster than the lock is served and a queue builds; a ringed point did not serve its offered "+
				"rate (achieved below %.0f%% of it, less the Poisson count's noise), so its latency is that of a backlog, not of "+
				"the rate on the axis.%s%s",
				cond.Arrival, metricLabel(metric), describe(cond), cond.NetworkLabel(), 100*capacity.MinDelivered,
				spreadNote(groups), noData(missing(groups, metric))),
			Series: legend.Labels,
			Looks:  legend.Looks,
		}, Plot: p})
	}
	return out, nil
}

// saturated says whether a group's generator fell short of the offered rate, by the
// capacity search's own test.
func saturated(g *stats.Group) bool {
	c := g.Repeats[0]
	return g.AchievedRate() < capacity.MinAchieved(g.Condition.TargetRate, c.Elapsed.D(), g.Condition.Arrival == "poisson")
}

// ringSaturated draws a wide ring round each saturated point and names it in the legend.
func ringSaturated(p *plot.Plot, pts plotter.XYs) error {
	rings, err := plotter.NewScatter(pts)
	if err != nil {
		return err
	}
	rings.GlyphStyle = draw.GlyphStyle{Color: plots.Ink, Radius: vg.Points(7), Shape: draw.RingGlyph{}}
	p.Add(plots.Roomy{Scatter: rings, Room: vg.Points(plots.RingRoom)})
	p.Legend.Add(saturatedLabel, rings)
	return nil
}
