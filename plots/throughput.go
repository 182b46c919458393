package plots

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/lockbench/lockbench/stats"
)

// throughputFigures draws completed cycles per second against clients, one line per
// strategy: one figure with every client on one key (contended) and one with a key
// per client (uncontended), closed loop, no injected latency.
func throughputFigures(src *source) ([]drawn, error) {
	plain := src.where(func(g *stats.Group) bool { return !g.Condition.Open() && g.Condition.Network == "none" })
	holdTTL := func(c stats.Condition) stats.Condition { return stats.Condition{Hold: c.Hold, TTL: c.TTL} }
	keys, sets := byCondition(plain, holdTTL)
	var out []drawn
	for _, cond := range keys {
		for _, kind := range []struct {
			name, words string
			member      func(c stats.Condition) bool
		}{
			{"contended", "every client on one key", func(c stats.Condition) bool { return c.Keys == 1 }},
			{"uncontended", "one key per client", func(c stats.Condition) bool { return c.Keys == c.Clients }},
		} {
			var xs, ys []float64
			var all []series
			var members []*stats.Group
			for _, strategy := range strategiesOf(sets[cond]) {
				sr := series{label: strategy, strategy: strategy}
				for _, g := range sets[cond] {
					if g.Strategy == strategy && kind.member(g.Condition) {
						members = append(members, g)
						sr.points = append(sr.points, plotter.XY{X: float64(g.Condition.Clients), Y: g.Throughput()})
						xs, ys = append(xs, float64(g.Condition.Clients)), append(ys, g.Throughput())
						sr.spread = append(sr.spread, spreadOrPoint(throughputSpread(g))(g.Throughput()))
					}
				}
				all = append(all, sr)
			}
			if distinct(xs) < 2 {
				continue // one client count is a table row, not a curve
			}
			p := newPlot(fmt.Sprintf("Throughput against clients, %s (hold %s, TTL %s)", kind.words, cond.Hold, cond.TTL),
				"clients (log scale)", "")
			p.X.Tick.Marker = clientTicks(xs)
			axes := logAxes{x: true, y: yScale(p, "completed acquire-hold-release cycles per second", ys)}
			legend, err := src.styles.add(p, axes, all)
			if err != nil {
				return nil, err
			}
			padLog(&p.X)
			if axes.y {
				padLog(&p.Y)
			}
			name := "throughput-" + kind.name
			if len(keys) > 1 {
				name += "_" + slug("hold="+cond.Hold.String(), "ttl="+cond.TTL.String())
			}
			out = append(out, drawn{Figure: Figure{
				Name: name,
				Caption: fmt.Sprintf("Throughput (completed cycles per second, median of repeats) against the number of clients, %s, closed loop, no injected latency, hold %s, TTL %s%s.%s",
					kind.words, cond.Hold, cond.TTL, scaleNote(axes.y), spreadNote(members)),
				Series: legend.labels,
				looks:  legend.looks,
			}, plot: p})
		}
	}
	return out, nil
}

// clientTicks labels exactly the client counts that were measured.
func clientTicks(xs []float64) plot.ConstantTicks {
	seen := map[float64]bool{}
	var ticks plot.ConstantTicks
	for _, x := range sortedCopy(xs) {
		if !seen[x] {
			seen[x] = true
			ticks = append(ticks, plot.Tick{Value: math.Log10(x), Label: fmt.Sprint(x)})
		}
	}
	return ticks
}
