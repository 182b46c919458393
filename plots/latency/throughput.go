package latency

import (
	"fmt"

	"gonum.org/v1/plot/plotter"

	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/stats"
)

// throughputFigures draws completed cycles per second against clients, one line per
// strategy: one figure with every client on one key (contended) and one with a key
// per client (uncontended), closed loop, no injected latency.
func throughputFigures(src *source) ([]plots.Drawn, error) {
	plain := src.where(func(g *stats.Group) bool { return !g.Condition.Open() && g.Condition.Network == "none" })
	holdTTL := func(c stats.Condition) stats.Condition { return stats.Condition{Hold: c.Hold, TTL: c.TTL} }
	keys, sets := byCondition(plain, holdTTL)
	var out []plots.Drawn
	for _, cond := range keys {
		for _, kind := range []struct {
			name, words string
			member      func(c stats.Condition) bool
		}{
			{"contended", "every client on one key", func(c stats.Condition) bool { return c.Keys == 1 }},
			{"uncontended", "one key per client", func(c stats.Condition) bool { return c.Keys == c.Clients }},
		} {
			var xs, ys []float64
			var all []plots.Series
			var members []*stats.Group
			for _, strategy := range src.strategiesOf(sets[cond]) {
				sr := plots.Series{Label: strategy, Strategy: strategy}
				for _, g := range sets[cond] {
					if g.Strategy == strategy && kind.member(g.Condition) {
						members = append(members, g)
						sr.Points = append(sr.Points, plotter.XY{X: float64(g.Condition.Clients), Y: g.Throughput()})
						xs, ys = append(xs, float64(g.Condition.Clients)), append(ys, g.Throughput())
						sr.Spread = append(sr.Spread, spreadOrPoint(throughputSpread(g))(g.Throughput()))
					}
				}
				all = append(all, sr)
			}
			if plots.Distinct(xs) < 2 {
				continue // one client count is a table row, not a curve
			}
			p := plots.NewPlot(fmt.Sprintf("Throughput against clients, %s (hold %s, TTL %s)", kind.words, cond.Hold, cond.TTL),
				"clients (log scale)", "")
			p.X.Tick.Marker = plots.ClientTicks(xs)
			axes := plots.LogAxes{X: true, Y: plots.YScale(p, "completed acquire-hold-release cycles per second", ys)}
			legend, err := src.styles.Add(p, axes, all)
			if err != nil {
				return nil, err
			}
			plots.PadLog(&p.X)
			if axes.Y {
				plots.PadLog(&p.Y)
			}
			name := "throughput-" + kind.name
			if len(keys) > 1 {
				name += "_" + slug("hold="+cond.Hold.String(), "ttl="+cond.TTL.String())
			}
			out = append(out, plots.Drawn{Figure: plots.Figure{
				Name: name,
				Caption: fmt.Sprintf("Throughput (completed cycles per second, median of repeats) against the number of clients, "+
					"%s, closed loop, no injected latency, hold %s, TTL %s%s.%s",
					kind.words, cond.Hold, cond.TTL, scaleNote(axes.Y), spreadNote(members)),
				Series: legend.Labels,
				Looks:  legend.Looks,
			}, Plot: p})
		}
	}
	return out, nil
}
