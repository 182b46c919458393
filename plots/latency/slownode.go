package latency

import (
	"fmt"

	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/stats"
)

// slowNodeFigures draws the strategies measured with one slow node (Redlock's, as
// their store declares): p50 and p99 latency against that node's added latency, closed loop.
func slowNodeFigures(src *source) ([]plots.Drawn, error) {
	slowed := stats.SlowNodeStrategies(src.groups)
	cells := src.where(func(g *stats.Group) bool {
		return slowed[g.Strategy] && !g.Condition.Open() &&
			(g.Condition.Network == "none" || g.Condition.Network == "one-slow")
	})
	keys, sets := byCondition(cells, closedWorkload)
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
		for _, strategy := range src.strategiesOf(groups) {
			for _, pc := range []struct {
				p      stats.Percentile
				dashed bool
			}{{stats.P99, false}, {stats.P50, true}} {
				sr := plots.Series{Label: fmt.Sprintf("%s %s", strategy, pc.p), Strategy: strategy, Dashed: pc.dashed}
				all = append(all, againstNetLatency(sr, groups, metric, pc.p))
			}
		}
		p := plots.NewPlot(fmt.Sprintf("One slow node: %s", describe(cond)),
			"latency added to one node, each direction (ms; 0 = none)", "")
		d, err := src.msAgainstX(p, fmt.Sprintf("%s latency (ms)", metric), all, func(scale string) plots.Figure {
			return plots.Figure{
				Name: "redlock-slow-node_" + workloadSlug(cond),
				Caption: fmt.Sprintf("One slow node (the strategies measured with one: Redlock's): p99 (solid) and p50 (dashed) "+
					"%s against the latency added to that node, %s, closed loop%s.%s%s",
					metricLabel(metric), describe(cond), scale, spreadNote(groups), noData(missing(groups, metric))),
			}
		})
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}
