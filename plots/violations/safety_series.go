package violations

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/safety/results"
)

// safetySeriesFigures draws a report's series, one figure per x axis: failover-loss
// gives loss probability against delay-to-kill (one line per mode) and against the
// promoted replica's lag margin; the clock scenarios give measured beside model.
func safetySeriesFigures(stores *backend.Catalog, rep *results.Report) ([]plots.Drawn, error) {
	var axes []string
	byAxis := map[string][]results.Series{}
	for _, s := range rep.Series {
		if len(s.Points) == 0 {
			continue // a mode whose every trial went unjudged has no point to draw
		}
		if _, ok := byAxis[s.X]; !ok {
			axes = append(axes, s.X)
		}
		byAxis[s.X] = append(byAxis[s.X], s)
	}
	st := plots.NewStyles(stores, seriesStyleKeys(rep.Series))
	var out []plots.Drawn
	for _, x := range axes {
		d, err := seriesFigure(rep, x, byAxis[x], st)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// measuredPoint says whether a point counts judged trials (it has an interval): a
// model's value has none, and neither counts nor bars are drawn for it.
func measuredPoint(pt results.Point) bool { return pt.Lo != pt.Hi }

// intervalNote is what the title and caption say the bars are.
const intervalNote = "bars: 95% Wilson intervals over the judged trials"

func seriesFigure(rep *results.Report, xLabel string, all []results.Series, st plots.Styles) (plots.Drawn, error) {
	yLabel := all[0].Y
	var xs []float64
	probability := true
	ns := map[int]int{} // measured points per judged-trial count
	for _, s := range all {
		for _, pt := range s.Points {
			xs = append(xs, pt.X)
			probability = probability && pt.Y >= 0 && pt.Y <= 1
			if measuredPoint(pt) {
				ns[pt.N]++
			}
		}
	}
	usual := usualCount(ns)
	var notes []string
	if len(ns) > 0 {
		note := trials(usual) + " per point"
		if len(ns) > 1 {
			note += " unless labelled"
		}
		notes = append(notes, note, intervalNote)
	}
	title := wrapEvenly(fmt.Sprintf("%s: %s against %s", rep.Scenario, yLabel, unitless(xLabel)), 80)
	if len(notes) > 0 {
		title += "\n" + wrapEvenly("("+strings.Join(notes, "; ")+")", 80)
	}
	p := plots.NewPlot(title, wrapEvenly(xLabel, 55), yLabel)
	if probability {
		// A little beyond [0,1] so that glyphs at 0 and 1 are not cut by the frame.
		p.Y.Min, p.Y.Max = -0.04, 1.04
		p.Y.Tick.Marker = plot.ConstantTicks{{Value: 0, Label: "0"}, {Value: 0.25, Label: "0.25"},
			{Value: 0.5, Label: "0.5"}, {Value: 0.75, Label: "0.75"}, {Value: 1, Label: "1"}}
	}
	// Swept values over more than a factor of 20 (clock jumps of 2 to 300 ms) crowd
	// the small ones against the axis: log10 of x, ticked at the values run.
	logX := plots.Wide(xs) && allPositive(xs)
	if logX {
		p.X.Label.Text = wrapEvenly(plots.LogLabel(xLabel), 55)
		var raw []float64
		raw, xs = xs, nil
		for _, x := range raw {
			xs = append(xs, math.Log10(x))
		}
		if ticks := logMeasuredTicks(raw); plots.TicksApart(ticks) {
			p.X.Tick.Marker = ticks
		} else {
			p.X.Tick.Marker = plots.LogTicks{}
		}
	} else if ticks := plots.MeasuredTicks(xs); plots.TicksApart(ticks) {
		p.X.Tick.Marker = ticks
	}
	all = onLogX(all, logX)
	// Bars go under the lines and glyphs, each series' a little to the side, so that
	// neither a glyph nor another series' bar at the same x hides them.
	bars, err := intervalBars(all, st)
	if err != nil {
		return plots.Drawn{}, err
	}
	for _, b := range bars {
		p.Add(b)
	}
	withModel := false
	for _, s := range all {
		withModel = withModel || strings.HasSuffix(s.Name, " model")
	}
	var lines []plots.Series
	for _, s := range all {
		model := strings.HasSuffix(s.Name, " model")
		// Beside a model, a measurement is its points and bars and the model its dashed
		// line: drawn both as lines, a model that agrees hid the measurement under it.
		sr := plots.Series{Label: s.Name, Strategy: styleKey(s.Name), Dashed: model,
			LineOnly: model, PointsOnly: withModel && !model && strings.HasSuffix(s.Name, " measured")}
		for _, pt := range s.Points {
			sr.Points = append(sr.Points, plotter.XY{X: pt.X, Y: pt.Y})
		}
		lines = append(lines, sr)
	}
	legend, err := st.Add(p, plots.LogAxes{}, lines)
	if err != nil {
		return plots.Drawn{}, err
	}
	// The title gives the usual count; a point with another count carries its own.
	for i, s := range all {
		if err := addTrialCounts(p, s, usual, i, len(bars), st); err != nil {
			return plots.Drawn{}, err
		}
	}
	plots.PadLinear(&p.X, xs)
	caption := fmt.Sprintf("%s (seed %d): %s against %s, one line per series; a point is the share among its judged "+
		"trials (trials where the fault was not produced or the grant was refused are left out)",
		rep.Scenario, rep.Seed, yLabel, xLabel)
	if withModel {
		caption += "; measured series are drawn as points, each model as a dashed line in its colour"
	}
	if logX {
		caption += "; x on a log scale (the values run span more than a factor of 20)"
	}
	if len(ns) > 0 {
		caption += "; " + intervalNote + ". Judged trials per point: " + trialCounts(all)
	}
	return plots.Drawn{Figure: plots.Figure{
		Name:    rep.Scenario + "_vs-" + safetySlug(xLabel),
		Caption: caption + ".",
		Series:  legend.Labels,
		Looks:   legend.Looks,
	}, Plot: p}, nil
}

// allPositive says whether every value can go on a log axis.
func allPositive(xs []float64) bool {
	for _, x := range xs {
		if x <= 0 {
			return false
		}
	}
	return len(xs) > 0
}

// onLogX returns the series with every x replaced by its log10 when logX is set.
func onLogX(all []results.Series, logX bool) []results.Series {
	if !logX {
		return all
	}
	out := make([]results.Series, len(all))
	for i, s := range all {
		s.Points = append([]results.Point(nil), s.Points...)
		for j := range s.Points {
			s.Points[j].X = math.Log10(s.Points[j].X)
		}
		out[i] = s
	}
	return out
}

// logMeasuredTicks labels a log10 axis at exactly the values run, with their real values.
func logMeasuredTicks(xs []float64) plot.ConstantTicks {
	var ticks plot.ConstantTicks
	for _, t := range plots.MeasuredTicks(xs) {
		ticks = append(ticks, plot.Tick{Value: math.Log10(t.Value), Label: t.Label})
	}
	return ticks
}

// barSpacing is how far apart the bars of series sharing an x are drawn: a glyph's
// width, so that two series' bars at one x stand beside each other.
const barSpacing = 5.0

// intervalBars are each measured point's interval, Lo to Hi, as a vertical bar in
// its series' colour. The series with bars are spread barSpacing points apart
// around the true x, in series order.
func intervalBars(all []results.Series, st plots.Styles) ([]dodged, error) {
	var barred []results.Series
	for _, s := range all {
		for _, pt := range s.Points {
			if measuredPoint(pt) {
				barred = append(barred, s)
				break
			}
		}
	}
	var out []dodged
	for i, s := range barred {
		var pts plots.Intervals
		for _, pt := range s.Points {
			if measuredPoint(pt) {
				pts.XYs = append(pts.XYs, plotter.XY{X: pt.X, Y: pt.Y})
				pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{pt.Y - pt.Lo, pt.Hi - pt.Y})
			}
		}
		bars, err := plotter.NewYErrorBars(pts)
		if err != nil {
			return nil, fmt.Errorf("series %s: %w", s.Name, err)
		}
		bars.LineStyle = st.Line(styleKey(s.Name), false)
		bars.LineStyle.Width = vg.Points(1)
		bars.CapWidth = vg.Points(4)
		out = append(out, dodged{bars, vg.Points(barSpacing * (float64(i) - float64(len(barred)-1)/2))})
	}
	return out, nil
}

// dodged draws error bars dx to the side of their x, in the canvas's units: a few
// points whatever the axis' span, so that a bar stays beside its own glyph.
type dodged struct {
	*plotter.YErrorBars
	dx vg.Length
}

func (d dodged) Plot(c draw.Canvas, p *plot.Plot) {
	c.Rectangle.Min.X += d.dx
	c.Rectangle.Max.X += d.dx
	d.YErrorBars.Plot(c, p)
}

func (d dodged) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	boxes := d.YErrorBars.GlyphBoxes(p)
	for i := range boxes {
		boxes[i].Rectangle.Min.X += d.dx
		boxes[i].Rectangle.Max.X += d.dx
	}
	return boxes
}

// addTrialCounts writes "n=K" above each measured point of a series whose count is
// not the usual one, in its colour, to the right of the barred series' bars; the i-th
// series sits one line higher so that labels of coinciding points stack, not overlap.
func addTrialCounts(p *plot.Plot, s results.Series, usual, i, barred int, st plots.Styles) error {
	xyl := plotter.XYLabels{}
	for _, pt := range s.Points {
		if !measuredPoint(pt) || pt.N == usual {
			continue
		}
		xyl.XYs = append(xyl.XYs, plotter.XY{X: pt.X, Y: pt.Y})
		xyl.Labels = append(xyl.Labels, "n="+strconv.Itoa(pt.N))
	}
	if len(xyl.XYs) == 0 {
		return nil
	}
	l, err := plotter.NewLabels(xyl)
	if err != nil {
		return err
	}
	for j := range l.TextStyle {
		l.TextStyle[j].Color = st.Line(styleKey(s.Name), false).Color
		l.TextStyle[j].Font.Size = vg.Points(8)
	}
	l.Offset = vg.Point{X: vg.Points(4 + barSpacing*float64(max(barred-1, 0))/2), Y: vg.Points(3 + 9*float64(i))}
	p.Add(l)
	return nil
}

// usualCount is the judged-trial count most points share (the smaller on a tie).
func usualCount(ns map[int]int) int {
	usual := -1
	for n, points := range ns {
		if usual < 0 || points > ns[usual] || (points == ns[usual] && n < usual) {
			usual = n
		}
	}
	return usual
}

func trials(n int) string {
	if n == 1 {
		return "1 judged trial"
	}
	return strconv.Itoa(n) + " judged trials"
}

// trialCounts lists each measured series' judged trials per point for the caption.
func trialCounts(all []results.Series) string {
	var parts []string
	for _, s := range all {
		var ns []string
		for _, pt := range s.Points {
			if measuredPoint(pt) {
				ns = append(ns, strconv.Itoa(pt.N))
			}
		}
		if len(ns) > 0 {
			parts = append(parts, s.Name+" "+strings.Join(ns, ", "))
		}
	}
	return strings.Join(parts, "; ")
}

// styleKey strips the suffix that tells apart two views of one configuration, so that
// "k=3 measured" and "k=3 model", or "mode=none" and "mode=none by lag", share a colour.
func styleKey(name string) string {
	for _, suffix := range []string{" measured", " model", " by lag"} {
		name = strings.TrimSuffix(name, suffix)
	}
	return name
}

func seriesStyleKeys(all []results.Series) []string {
	var keys []string
	seen := map[string]bool{}
	for _, s := range all {
		if k := styleKey(s.Name); !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	return keys
}

// wrapWords breaks text into lines of at most about width characters, at spaces:
// gonum clips a title or axis label wider than the figure instead of wrapping it.
func wrapWords(text string, width int) string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = w
			continue
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return strings.Join(append(lines, line), "\n")
}

// wrapEvenly wraps text in as few lines as wrapWords would, but of even lengths, so
// that no line is left with a single word.
func wrapEvenly(text string, width int) string {
	lines := strings.Count(wrapWords(text, width), "\n") + 1
	for w := len(text) / lines; w < width; w++ {
		if out := wrapWords(text, w); strings.Count(out, "\n")+1 <= lines {
			return out
		}
	}
	return wrapWords(text, width)
}

// unitless drops the bracketed unit from an axis label, for titles.
func unitless(label string) string {
	if i := strings.Index(label, " ("); i >= 0 {
		return label[:i]
	}
	return label
}
