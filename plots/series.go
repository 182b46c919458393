package plots

import (
	"fmt"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Series is one legend entry: a strategy's points, drawn in its look, in data units.
type Series struct {
	Label    string
	Strategy string
	Dashed   bool // the strategy's second line in the figure
	Points   plotter.XYs
	// Spread, when set, is each point's low and high value (same order as points),
	// drawn as an error bar.
	Spread []Span
	// Marked, when set, says which points (in data units) get a glyph; the line still
	// runs through every point. Nil marks every point.
	Marked func(pt plotter.XY) bool
	// PointsOnly draws glyphs (and bars) without the joining line; LineOnly draws the
	// line without glyphs: measurements beside the model they are read against, so
	// that where the two agree both still show.
	PointsOnly, LineOnly bool
}

// Span is the low and high end of a point's spread.
type Span struct{ Lo, Hi float64 }

// LogAxes says which axes of a figure are drawn over log10 of the data.
type LogAxes struct{ X, Y bool }

// Entries are the legend of a figure: labels and the look of each.
type Entries struct {
	Labels []string
	Looks  []Look
}

func (e *Entries) Add(label string, l Look) {
	e.Labels = append(e.Labels, label)
	e.Looks = append(e.Looks, l)
}

// Add draws each series as a line with a glyph on every measured point (or on those
// its marked picks) and its spread as error bars, and names it in the legend.
func (s Styles) Add(p *plot.Plot, axes LogAxes, all []Series) (Entries, error) {
	var legend Entries
	for _, sr := range all {
		pts, spread, kept := onAxes(sr, axes)
		if len(pts) == 0 {
			continue
		}
		l := s.Look(sr.Strategy, sr.Dashed)
		if barred := withBars(pts, spread); len(barred.XYs) > 0 {
			bars, err := plotter.NewYErrorBars(barred)
			if err != nil {
				return Entries{}, fmt.Errorf("series %s: %w", sr.Label, err)
			}
			bars.LineStyle = LineStyle(l)
			bars.LineStyle.Width, bars.LineStyle.Dashes = vg.Points(0.8), nil
			bars.CapWidth = vg.Points(5)
			p.Add(bars)
		}
		line, err := plotter.NewLine(pts)
		if err != nil {
			return Entries{}, fmt.Errorf("series %s: %w", sr.Label, err)
		}
		var at plotter.XYs
		for i, pt := range pts {
			if sr.Marked == nil || sr.Marked(sr.Points[kept[i]]) {
				at = append(at, pt)
			}
		}
		if len(at) == 0 { // a series none of whose points is picked still shows its glyph
			at = pts[len(pts)-1:]
		}
		glyphs, err := plotter.NewScatter(at)
		if err != nil {
			return Entries{}, fmt.Errorf("series %s: %w", sr.Label, err)
		}
		line.LineStyle = LineStyle(l)
		glyphs.GlyphStyle = GlyphStyle(l)
		switch {
		case sr.PointsOnly:
			p.Add(glyphs)
			p.Legend.Add(sr.Label, glyphs)
		case sr.LineOnly && len(pts) > 1:
			p.Add(line)
			p.Legend.Add(sr.Label, line)
		default:
			p.Add(line, glyphs)
			p.Legend.Add(sr.Label, line, glyphs)
		}
		legend.Add(sr.Label, l)
	}
	return legend, nil
}

// withBars keeps the points whose spread is not nil: a bar of no length would draw
// as a stray cap.
func withBars(pts plotter.XYs, spread plotter.YErrors) Intervals {
	var out Intervals
	for i, e := range spread {
		if e.Low > 0 || e.High > 0 {
			out.XYs = append(out.XYs, pts[i])
			out.YErrors = append(out.YErrors, e)
		}
	}
	return out
}

// onAxes sorts a series' points by x and maps them, and their spread as distances
// below and above, onto the figure's axes; points a log axis cannot show are dropped.
// kept is, for each point returned, its index in sr.points.
func onAxes(sr Series, axes LogAxes) (pts plotter.XYs, errs plotter.YErrors, kept []int) {
	order := make([]int, len(sr.Points))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return sr.Points[order[a]].X < sr.Points[order[b]].X })
	for _, i := range order {
		mapped := Log10XY(plotter.XYs{sr.Points[i]}, axes.X, axes.Y)
		if len(mapped) == 0 {
			continue
		}
		pt := mapped[0]
		pts = append(pts, pt)
		kept = append(kept, i)
		if len(sr.Spread) == 0 {
			continue
		}
		lo, hi := sr.Spread[i].Lo, sr.Spread[i].Hi
		if axes.Y {
			lo, hi = logOrFloor(lo, pt.Y), logOrFloor(hi, pt.Y)
		}
		errs = append(errs, struct{ Low, High float64 }{max(pt.Y-lo, 0), max(hi-pt.Y, 0)})
	}
	if len(sr.Spread) == 0 {
		return pts, nil, kept
	}
	return pts, errs, kept
}

// Distinct counts Distinct values.
func Distinct(values []float64) int {
	seen := map[float64]bool{}
	for _, v := range values {
		seen[v] = true
	}
	return len(seen)
}

func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// Intervals are points with their distances down to Lo and up to Hi.
type Intervals struct {
	plotter.XYs
	plotter.YErrors
}
