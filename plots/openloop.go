package plots

import (
	"fmt"

	"gonum.org/v1/plot/plotter"

	"github.com/lockbench/lockbench/report/digest"
)

// openLoopFigures draws p99 latency against the offered rate of open-loop cells, one
// line per strategy: where the line turns up is the rate at which a queue builds.
func openLoopFigures(src *source) ([]drawn, error) {
	cells := src.where(func(g *digest.Group) bool { return g.Condition.Open() })
	workload := func(c digest.Condition) digest.Condition {
		c.TargetRate = 0
		return c
	}
	keys, sets := byCondition(cells, workload)
	var out []drawn
	for i, cond := range keys {
		groups := sets[cond]
		var xs []float64
		for _, g := range groups {
			xs = append(xs, g.Condition.TargetRate)
		}
		if distinct(xs) < 2 {
			continue
		}
		metric := digest.LatencyMetric(groups)
		var all []series
		for _, strategy := range strategiesOf(groups) {
			sr := series{label: strategy, strategy: strategy}
			for _, g := range groups {
				if g.Strategy == strategy && g.HasLatency(metric) {
					sr.points = append(sr.points, plotter.XY{X: g.Condition.TargetRate, Y: ms(float64(g.Latency(metric, digest.P99)))})
				}
			}
			sr.points = log10XY(sr.points, false, true)
			all = append(all, sr)
		}
		p := newPlot(fmt.Sprintf("Open loop: p99 %s latency against offered rate, %s", metric, describe(cond)),
			"offered rate (requests per second)", fmt.Sprintf("p99 %s latency (ms, log scale)", metric))
		p.X.Min = 0
		p.Y.Tick.Marker = logTicks{}
		labels, err := src.add(p, all)
		if err != nil {
			return nil, err
		}
		padLog(&p.Y)
		name := "open-loop"
		if len(keys) > 1 {
			name = fmt.Sprintf("open-loop-%d_%s", i+1, slug(fmt.Sprintf("clients=%d", cond.Clients), fmt.Sprintf("keys=%d", cond.Keys)))
		}
		out = append(out, drawn{Figure: Figure{
			Name: name,
			Caption: fmt.Sprintf("Open loop (%s arrivals): p99 %s against the offered rate, %s, %s. Where a line turns up, requests arrive faster than the lock is served and a queue builds.%s",
				cond.Arrival, metricLabel(metric), describe(cond), cond.NetworkLabel(), noData(missing(groups, metric))),
			Series: labels,
		}, plot: p})
	}
	return out, nil
}
