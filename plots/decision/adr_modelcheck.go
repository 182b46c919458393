package decision

import (
	"fmt"
	"math"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/lockbench/lockbench/plots"
)

// ModelPoint is one condition of a model's check: the model's prediction, and the
// lab's k of n judged trials with its 95% interval.
type ModelPoint struct {
	Label     string
	Predicted float64
	K, N      int
	Lo, Hi    float64
}

// ModelCheck is a figure of a model's predictions against the lab's points, one
// condition a column.
type ModelCheck struct {
	Name, Title, YLabel, Caption string
	Points                       []ModelPoint
	// Upright turns the conditions' names a quarter turn, for many columns.
	Upright bool
}

const (
	labLabel   = "lab: share of judged trials, 95% interval"
	modelLabel = "model's prediction"
	sideBySide = 0.08 // each column's half gap between the lab's point and the model's
)

// modelCheckFigure draws each condition's measured share with its interval and the
// model's prediction beside it, on a 0-1 axis.
func modelCheckFigure(f ModelCheck) (plots.Drawn, error) {
	if len(f.Points) == 0 {
		return plots.Drawn{}, fmt.Errorf("figure %s: no condition to draw", f.Name)
	}
	p := plots.NewPlot(f.Title, "", f.YLabel)
	var measured, predicted plotter.XYs
	var bars plotter.YErrors
	var names []string
	for i, pt := range f.Points {
		if pt.N == 0 {
			return plots.Drawn{}, fmt.Errorf("figure %s: %s has no judged trial", f.Name, pt.Label)
		}
		share := float64(pt.K) / float64(pt.N)
		// Side by side, so that a prediction on the point does not hide it.
		measured = append(measured, plotter.XY{X: float64(i) - sideBySide, Y: share})
		bars = append(bars, struct{ Low, High float64 }{share - pt.Lo, pt.Hi - share})
		predicted = append(predicted, plotter.XY{X: float64(i) + sideBySide, Y: pt.Predicted})
		names = append(names, fmt.Sprintf("%s (%d/%d)", pt.Label, pt.K, pt.N))
	}
	lab, err := plotter.NewScatter(measured)
	if err != nil {
		return plots.Drawn{}, fmt.Errorf("figure %s: %w", f.Name, err)
	}
	labLook, modelLook := plots.LookOf(0), plots.LookOf(3)
	lab.GlyphStyle = plots.GlyphStyle(labLook)
	errs, err := plotter.NewYErrorBars(struct {
		plotter.XYer
		plotter.YErrorer
	}{measured, bars})
	if err != nil {
		return plots.Drawn{}, fmt.Errorf("figure %s: %w", f.Name, err)
	}
	errs.LineStyle = plots.LineStyle(labLook)
	model, err := plotter.NewScatter(predicted)
	if err != nil {
		return plots.Drawn{}, fmt.Errorf("figure %s: %w", f.Name, err)
	}
	model.GlyphStyle = plots.GlyphStyle(modelLook)
	model.GlyphStyle.Radius = vg.Points(5)
	p.Add(errs, lab, model)
	p.Legend.Add(labLabel, lab)
	p.Legend.Add(modelLabel, model)
	p.NominalX(names...)
	if f.Upright {
		p.X.Tick.Label.Rotation = math.Pi / 2
		p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
	}
	p.X.Min, p.X.Max = -0.5, float64(len(f.Points))-0.5
	p.Y.Min, p.Y.Max = 0, 1
	return plots.Drawn{Figure: plots.Figure{Name: f.Name, Caption: f.Caption, Series: []string{labLabel, modelLabel},
		Looks: []plots.Look{labLook, modelLook}}, Plot: p}, nil
}
