package latency

import (
	"fmt"

	"gonum.org/v1/plot/plotter"

	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/stats"
)

// slowNodeFigures draws the Redlock variants (redlock, redlock-failfast...) with one
// slow node: p50 and p99 latency against that node's added latency, closed loop.
func slowNodeFigures(src *source) ([]plots.Drawn, error) {
	cells := src.where(func(g *stats.Group) bool {
		return stats.IsRedlock(g.Strategy) && !g.Condition.Open() && (g.Condition.Network == "none" || g.Condition.Network == "one-slow")
	})
	workload := func(c stats.Condition) stats.Condition {
		return stats.Condition{Clients: c.Clients, Keys: c.Keys, Hold: c.Hold, TTL: c.TTL}
	}
	keys, sets := byCondition(cells, workload)
	var out []plots.Drawn
	for _, cond := range keys {
		groups := sets[cond]
		slow := false
		for _, g := range groups {
			slow = slow || g.Condition.Network == "one-slow"
		}
		if !slow {
			continue
		}
		metric := stats.LatencyMetric(groups)
		var all []plots.Series
		var ys []float64
		for _, strategy := range strategiesOf(groups) {
			for _, pc := range []struct {
				p      stats.Percentile
				dashed bool
			}{{stats.P99, false}, {stats.P50, true}} {
				sr := plots.Series{Label: fmt.Sprintf("%s %s", strategy, pc.p), Strategy: strategy, Dashed: pc.dashed}
				for _, g := range groups {
					if g.Strategy == strategy && g.HasLatency(metric) {
						y := plots.MS(float64(g.Latency(metric, pc.p)))
						sr.Points = append(sr.Points, plotter.XY{X: plots.MS(float64(g.Condition.NetLatency)), Y: y})
						sr.Spread = append(sr.Spread, spreadOrPoint(latencySpread(g, metric, pc.p))(y))
						ys = append(ys, y)
					}
				}
				all = append(all, sr)
			}
		}
		p := plots.NewPlot(fmt.Sprintf("Redlock with one slow node: %s", describe(cond)),
			"latency added to one node, each direction (ms; 0 = none)", "")
		plots.MeasuredX(p, plots.XsOf(all))
		axes := plots.LogAxes{Y: plots.YScale(p, fmt.Sprintf("%s latency (ms)", metric), ys)}
		legend, err := src.styles.Add(p, axes, all)
		if err != nil {
			return nil, err
		}
		if axes.Y {
			plots.PadLog(&p.Y)
		}
		out = append(out, plots.Drawn{Figure: plots.Figure{
			Name: "redlock-slow-node_" + slug(fmt.Sprintf("clients=%d", cond.Clients), fmt.Sprintf("keys=%d", cond.Keys), "hold="+cond.Hold.String(), "ttl="+cond.TTL.String()),
			Caption: fmt.Sprintf("Redlock variants with one slow node: p99 (solid) and p50 (dashed) %s against the latency added to that node, %s, closed loop%s.%s%s",
				metricLabel(metric), describe(cond), scaleNote(axes.Y), spreadNote(groups), noData(missing(groups, metric))),
			Series: legend.Labels,
			Looks:  legend.Looks,
		}, Plot: p})
	}
	return out, nil
}
