// Package scaling draws how strategies scale: the capacity search's knees, the
// Universal Scalability Law fits, p99 against Redlock nodes and WAIT replicas.
package scaling

import (
	"fmt"
	"time"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/stats"
)

// KneePoint is one capacity probe: its offered rate, its percentile, and whether it
// kept the budget.
type KneePoint struct {
	Offered float64
	Latency time.Duration
	Kept    bool
}

// KneeSeries is one strategy's searched probes and the knee found.
type KneeSeries struct {
	Strategy    string
	Kept, Broke float64
	Mark        string // said beside the strategy in the legend: generator-bound, errors
	Points      []KneePoint
}

// KneeFigure draws the percentile against the offered rate of every probe of one
// condition's searches, the budget as a horizontal line and each strategy's searched
// knee (highest kept rate) as a vertical one; broken probes are drawn hollow.
func KneeFigure(dir string, stores *backend.Catalog, name, condition, percentile string, budget time.Duration,
	all []KneeSeries) (plots.Figure, error) {
	var strategies []string
	for _, s := range all {
		strategies = append(strategies, s.Strategy)
	}
	stats.SortStrategies(stores, strategies)
	st := plots.NewStyles(stores, strategies)
	p := plots.NewPlot(fmt.Sprintf("Capacity search: %s against offered rate, %s", percentile, condition),
		"offered rate (requests per second, log scale)", fmt.Sprintf("%s latency (ms, log scale)", percentile))
	p.X.Tick.Marker, p.Y.Tick.Marker = plots.LogTicks{}, plots.LogTicks{}
	var labels []string
	var looks []plots.Look
	var lo, hi float64
	anyBroke, anyKnee := false, false
	for _, s := range all {
		var kept, broke plotter.XYs
		for _, pt := range s.Points {
			xy := plotter.XY{X: pt.Offered, Y: plots.MS(float64(max(pt.Latency, time.Microsecond)))}
			if pt.Kept {
				kept = append(kept, xy)
			} else {
				broke = append(broke, xy)
				anyBroke = true
			}
			if lo == 0 || pt.Offered < lo {
				lo = pt.Offered
			}
			hi = max(hi, pt.Offered)
		}
		label := fmt.Sprintf("%s: %s/s", s.Strategy, stats.FormatRate(s.Kept))
		if s.Kept == 0 {
			label = s.Strategy + ": none kept"
		}
		if s.Mark != "" {
			label += " (" + s.Mark + ")"
		}
		g := st.Glyph(s.Strategy)
		hollow := g
		hollow.Shape = draw.RingGlyph{}
		named := false
		for _, set := range []struct {
			pts   plotter.XYs
			glyph draw.GlyphStyle
		}{{kept, g}, {broke, hollow}} {
			if len(set.pts) == 0 {
				continue
			}
			sc, err := plotter.NewScatter(plots.Log10XY(set.pts, true, true))
			if err != nil {
				return plots.Figure{}, err
			}
			sc.GlyphStyle = set.glyph
			p.Add(plots.Roomy{Scatter: sc, Room: vg.Points(plots.RingRoom)})
			if !named {
				p.Legend.Add(label, sc)
				labels = append(labels, label)
				looks = append(looks, st.Look(s.Strategy, false))
				named = true
			}
		}
		if s.Kept > 0 {
			knee, err := vertical(s.Kept, all, budget)
			if err != nil {
				return plots.Figure{}, err
			}
			knee.LineStyle = st.Line(s.Strategy, true)
			p.Add(knee)
			anyKnee = true
		}
	}
	// What the rings and the verticals are, in the legend too: the strategies' entries
	// show only their filled marker.
	if anyBroke {
		if err := plots.AddRingLegend(p, brokeLabel, vg.Points(3)); err != nil {
			return plots.Figure{}, err
		}
		labels = append(labels, brokeLabel)
		looks = append(looks, plots.SaturatedLook)
	}
	if anyKnee {
		p.Legend.Add(kneeLabel, legendLine{draw.LineStyle{Color: plots.Ink, Width: vg.Points(1.5), Dashes: plots.SecondView}})
		labels = append(labels, kneeLabel)
		looks = append(looks, plots.KneeLook)
	}
	if lo > 0 {
		line,
			err := plotter.NewLine(plots.Log10XY(plotter.XYs{{X: lo, Y: plots.MS(float64(budget))},
			{X: hi, Y: plots.MS(float64(budget))}}, true, true))
		if err != nil {
			return plots.Figure{}, err
		}
		line.LineStyle = draw.LineStyle{Color: plots.Ink, Width: vg.Points(1),
			Dashes: []vg.Length{vg.Points(2), vg.Points(2)}}
		p.Add(line)
		p.Legend.Add("budget "+stats.FormatDuration(budget), line)
		labels = append(labels, "budget "+stats.FormatDuration(budget))
		looks = append(looks, plots.BudgetLook)
	}
	plots.PadLog(&p.X)
	plots.PadLog(&p.Y)
	return plots.WriteOne(dir, plots.Drawn{Figure: plots.Figure{
		Name: name,
		Caption: fmt.Sprintf("Capacity search, %s: every probe's %s against its offered rate (filled: kept the budget; "+
			"rings: broke it), the budget (dotted) and each strategy's highest rate kept on a probe and its repeat (dashed).",
			condition, percentile),
		Series: labels,
		Looks:  looks,
	}, Plot: p})
}

const (
	brokeLabel = "ring: probe broke the budget"
	kneeLabel  = "dashed: highest rate kept"
)

// legendLine is a legend picture of a line style alone, for an entry that stands for
// lines of several colours.
type legendLine struct{ style draw.LineStyle }

func (l legendLine) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLine2(l.style, c.Min.X, y, c.Max.X, y)
}

// vertical is a line at rate spanning the probes' latencies and the budget.
func vertical(rate float64, all []KneeSeries, budget time.Duration) (*plotter.Line, error) {
	lo, hi := plots.MS(float64(budget)), plots.MS(float64(budget))
	for _, s := range all {
		for _, pt := range s.Points {
			v := plots.MS(float64(max(pt.Latency, time.Microsecond)))
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	return plotter.NewLine(plots.Log10XY(plotter.XYs{{X: rate, Y: lo}, {X: rate, Y: hi}}, true, true))
}
