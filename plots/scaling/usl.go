package scaling

import (
	"fmt"
	"math"

	"gonum.org/v1/plot/plotter"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/stats"
)

// USLSeries is one strategy's throughput against clients and, when the fit is good
// enough to draw, the fitted law.
type USLSeries struct {
	Strategy string
	Label    string                // legend entry: the strategy and its fit's parameters
	Points   plotter.XYs           // clients, cycles per second
	Fit      func(float64) float64 // nil: the fit is too poor to draw
}

// USLFigure draws measured throughput against clients (glyphs) with each strategy's
// Universal Scalability Law fit (dashed), clients on a log axis.
func USLFigure(dir string, stores *backend.Catalog, name, condition string, all []USLSeries) (plots.Figure, error) {
	var strategies []string
	var xs []float64
	for _, s := range all {
		strategies = append(strategies, s.Strategy)
		for _, pt := range s.Points {
			xs = append(xs, pt.X)
		}
	}
	stats.SortStrategies(stores, strategies)
	st := plots.NewStyles(stores, strategies)
	p := plots.NewPlot("Throughput against clients with the Universal Scalability Law fit, "+condition,
		"clients (log scale)", "completed cycles per second")
	p.X.Tick.Marker = plots.ClientTicks(xs)
	p.Y.Min = 0
	var labels []string
	var looks []plots.Look
	for _, s := range all {
		sc, err := plotter.NewScatter(plots.Log10XY(s.Points, true, false))
		if err != nil {
			return plots.Figure{}, fmt.Errorf("series %s: %w", s.Strategy, err)
		}
		sc.GlyphStyle = st.Glyph(s.Strategy)
		p.Add(sc)
		if s.Fit == nil {
			p.Legend.Add(s.Label, sc)
			labels = append(labels, s.Label)
			looks = append(looks, st.Look(s.Strategy, false))
			continue
		}
		lo, hi := math.Inf(1), 0.0
		for _, pt := range s.Points {
			lo, hi = min(lo, pt.X), max(hi, pt.X)
		}
		var curve plotter.XYs
		for i := 0; i <= 100; i++ {
			n := lo * math.Pow(hi/lo, float64(i)/100)
			curve = append(curve, plotter.XY{X: math.Log10(n), Y: s.Fit(n)})
		}
		line, err := plotter.NewLine(curve)
		if err != nil {
			return plots.Figure{}, err
		}
		line.LineStyle = st.Line(s.Strategy, true)
		p.Add(line)
		p.Legend.Add(s.Label, line, sc)
		labels = append(labels, s.Label)
		looks = append(looks, st.Look(s.Strategy, true))
	}
	plots.PadLog(&p.X)
	return plots.WriteOne(dir, plots.Drawn{Figure: plots.Figure{
		Name: name,
		Caption: fmt.Sprintf("Throughput (completed cycles per second) against clients, %s: measured (glyphs) and the "+
			"Universal Scalability Law fitted by least squares (dashed); a strategy whose fit is poor has no curve.",
			condition),
		Series: labels,
		Looks:  looks,
	}, Plot: p})
}
