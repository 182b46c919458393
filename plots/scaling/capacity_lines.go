package scaling

import (
	"fmt"

	"github.com/lockbench/lockbench/plots"
	"gonum.org/v1/plot/plotter"
)

// LineSeries is one labelled line of a scaling figure.
type LineSeries struct {
	Label  string
	Style  string // the strategy whose colour it takes
	Points plotter.XYs
}

// ScalingFigure draws a p99 (ms) against a scaling axis (Redlock nodes, WAIT
// replicas), one line per series, the axis ticked at exactly the values measured.
func ScalingFigure(dir, name, title, xLabel, caption string, all []LineSeries) (plots.Figure, error) {
	var styleNames []string
	for _, s := range all {
		styleNames = append(styleNames, s.Style)
	}
	st := plots.NewStyles(nil, styleNames) // series labels, not strategies: slots in order
	p := plots.NewPlot(title, xLabel, "")
	var sr []plots.Series
	var ys []float64
	for _, s := range all {
		sr = append(sr, plots.Series{Label: s.Label, Strategy: s.Style, Points: s.Points})
		for _, pt := range s.Points {
			ys = append(ys, pt.Y)
		}
	}
	axes := plots.LogAxes{Y: plots.YScale(p, "p99 acquire latency (ms)", ys)}
	legend, err := st.Add(p, axes, sr)
	if err != nil {
		return plots.Figure{}, fmt.Errorf("figure %s: %w", name, err)
	}
	if axes.Y {
		plots.PadLog(&p.Y)
	}
	return plots.WriteOne(dir,
		plots.Drawn{Figure: plots.Figure{Name: name, Caption: caption, Series: legend.Labels, Looks: legend.Looks}, Plot: p})
}
