package plots

import (
	"fmt"

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
func ScalingFigure(dir, name, title, xLabel, caption string, all []LineSeries) (Figure, error) {
	var styleNames []string
	for _, s := range all {
		styleNames = append(styleNames, s.Style)
	}
	st := newStyles(styleNames)
	p := newPlot(title, xLabel, "")
	var sr []series
	var ys []float64
	for _, s := range all {
		sr = append(sr, series{label: s.Label, strategy: s.Style, points: s.Points})
		for _, pt := range s.Points {
			ys = append(ys, pt.Y)
		}
	}
	axes := logAxes{y: yScale(p, "p99 acquire latency (ms)", ys)}
	legend, err := st.add(p, axes, sr)
	if err != nil {
		return Figure{}, fmt.Errorf("figure %s: %w", name, err)
	}
	if axes.y {
		padLog(&p.Y)
	}
	return writeOne(dir, drawn{Figure: Figure{Name: name, Caption: caption, Series: legend.labels, looks: legend.looks}, plot: p})
}
