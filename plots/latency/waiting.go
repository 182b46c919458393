package latency

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"

	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/stats"
)

// waitMeasure is one measure of how a strategy waits for a held key, read from a
// cell: its value and its spread (a point when the measure has none); false when the
// cell did not record it.
type waitMeasure struct {
	name, title, yLabel, caption string
	ms                           bool // a duration, drawn in milliseconds
	read                         func(c *resultsdir.Cell) (v float64, sp plots.Span, ok bool)
}

// durations reads a latency metric: its p50, its spread up to its p99.
func durations(metric string) func(c *resultsdir.Cell) (float64, plots.Span, bool) {
	return func(c *resultsdir.Cell) (float64, plots.Span, bool) {
		s, ok := c.Latency[metric]
		if !ok || s.Count == 0 {
			return 0, plots.Span{}, false
		}
		p50, p99 := float64(s.P50), float64(s.P99)
		return p50, plots.Span{Lo: p50, Hi: p99}, true
	}
}

// one reads a single number: no spread.
func one(read func(c *resultsdir.Cell) (float64, bool)) func(c *resultsdir.Cell) (float64, plots.Span, bool) {
	return func(c *resultsdir.Cell) (float64, plots.Span, bool) {
		v, ok := read(c)
		return v, plots.Span{Lo: v, Hi: v}, ok
	}
}

var waitMeasures = []waitMeasure{
	{name: "handoff", title: "Hand-off: a release to the next grant while someone waits", ms: true,
		yLabel: "hand-off (ms): p50, bar up to p99",
		caption: "the lock idle between two holders: from a release made while another client waited for the key " +
			"to its next grant",
		read: durations(resultsdir.MetricHandoff)},
	{name: "commands", title: "Commands per grant, counted at the servers",
		yLabel: "commands executed per completed cycle",
		caption: "each master's INFO commandstats before and after the measured part, over the cycles completed: " +
			"polls, failed tries and scripts counted where they land",
		read: one(func(c *resultsdir.Cell) (float64, bool) {
			if c.ServerCommands == nil || c.ServerCommands.PerGrant == 0 {
				return 0, false
			}
			return c.ServerCommands.PerGrant, true
		})},
	{name: "fairness", title: "Fairness under equal demand: Jain's index over the clients' grants",
		yLabel: "Jain's index (1: every client served alike)",
		caption: "Jain's index over the grants of the cell's clients, who all ask alike: 1 when each got the same " +
			"share, 1/n when one got them all",
		read: one(func(c *resultsdir.Cell) (float64, bool) {
			if c.Fairness == nil || c.Fairness.Clients < 2 {
				return 0, false
			}
			return c.Fairness.Jain, true
		})},
	{name: "crash-handoff", title: "Crash hand-off: a holder's death to the next grant", ms: true,
		yLabel: "crash hand-off (ms): p50, bar up to p99",
		caption: "a holder on connections of its own dies holding a key (its connections cut, no release) while a " +
			"client waits for it its way (run --crash-handoffs)",
		read: durations(resultsdir.MetricCrashHandoff)},
}

// waitingFigures draws, for each contended closed-loop condition with no injected
// latency, each measure of waiting per strategy: one column a strategy, in the
// report's order.
func waitingFigures(src *source) ([]plots.Drawn, error) {
	plain := src.where(func(g *stats.Group) bool {
		c := g.Condition
		return !c.Open() && c.Network == "none" && c.Contended() // no one waits for a key of their own
	})
	keys, sets := byCondition(plain, func(c stats.Condition) stats.Condition { return c })
	var out []plots.Drawn
	for _, cond := range keys {
		for _, m := range waitMeasures {
			d, ok, err := waitingFigure(src, sets[cond], cond, m, len(keys) > 1)
			if err != nil {
				return nil, err
			}
			if ok {
				out = append(out, d)
			}
		}
	}
	return out, nil
}

// waitingFigure draws measure m of one condition's groups; false when fewer than two
// strategies recorded it (one is a table row, not a comparison).
func waitingFigure(src *source, groups []*stats.Group, cond stats.Condition, m waitMeasure,
	named bool) (plots.Drawn, bool, error) {
	var all []plots.Series
	var names []string
	var ys []float64
	for _, g := range groups {
		v, sp, ok := m.read(g.Repeats[0]) // the first repeat: these are one cell's own counts
		if !ok {
			continue
		}
		if m.ms {
			v, sp = plots.MS(v), plots.Span{Lo: plots.MS(sp.Lo), Hi: plots.MS(sp.Hi)}
		}
		x := float64(len(names))
		names = append(names, g.Strategy)
		ys = append(ys, v, sp.Hi)
		all = append(all, plots.Series{Label: g.Strategy, Strategy: g.Strategy, PointsOnly: true,
			Points: plotter.XYs{{X: x, Y: v}}, Spread: []plots.Span{sp}})
	}
	if len(all) < 2 {
		return plots.Drawn{}, false, nil
	}
	where := fmt.Sprintf("%s, %s, hold %s, TTL %s", plots.Plural(cond.Clients, "client"),
		plots.Plural(cond.Keys, "key"), cond.Hold, cond.TTL)
	p := plots.NewPlot(fmt.Sprintf("%s (%s)", m.title, where), "", "")
	p.NominalX(names...)
	var axes plots.LogAxes
	if m.ms {
		axes.Y = plots.YScale(p, m.yLabel, ys)
	} else {
		p.Y.Label.Text, p.Y.Min = m.yLabel, 0 // counts and an index read on a linear scale
	}
	legend, err := src.styles.Add(p, axes, all)
	if err != nil {
		return plots.Drawn{}, false, err
	}
	if axes.Y {
		plots.PadLog(&p.Y)
	}
	padNominal(p, len(names))
	name := "waiting-" + m.name
	if named {
		name += "_" + workloadSlug(cond)
	}
	return plots.Drawn{Figure: plots.Figure{
		Name: name,
		Caption: fmt.Sprintf("%s per strategy: %s. Closed loop, %s, no injected latency, the first repeat's cell%s.",
			m.title, m.caption, where, scaleNote(axes.Y)),
		Series: legend.Labels,
		Looks:  legend.Looks,
	}, Plot: p}, true, nil
}

// padNominal leaves half a column either side of the first and last strategy, and
// slants the strategies' names so that long ones do not run into each other.
func padNominal(p *plot.Plot, n int) {
	p.X.Min, p.X.Max = -0.5, float64(n)-0.5
	p.X.Tick.Label.Rotation = math.Pi / 6
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
}
