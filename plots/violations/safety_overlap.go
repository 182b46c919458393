package violations

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/safety/results"
)

// overlapFigure draws, one row per variant, how long two holders were inside the
// critical section at once: every overlap as a dot, with a box for its quartiles.
// Variants without overlap keep their row, labelled "no overlap", to show what held.
func overlapFigure(rep *results.Report) ([]plots.Drawn, error) {
	var all []float64
	var judged []*results.Variant
	for _, v := range rep.Variants {
		all = append(all, v.Tally.Overlap.Values...)
		if v.Tally.Judged > 0 {
			judged = append(judged, v)
		}
	}
	if len(all) == 0 || len(judged) == 0 {
		return nil, nil // no two holders at once anywhere: nothing to draw
	}
	lo, hi := all[0], all[0]
	for _, x := range all {
		lo, hi = min(lo, x), max(hi, x)
	}
	// Overlaps from a fraction of a millisecond to seconds only read on a log axis.
	logX := lo > 0 && hi/lo > 100
	// Short lines: gonum squeezes the data area to fit the axis label's width.
	xLabel := "overlap: time two holders were inside at once (ms)"
	if logX {
		xLabel = "overlap: time two holders were inside at once\n(ms, log scale)"
	}
	title := fmt.Sprintf("%s: overlap durations per variant (seed %d)", rep.Scenario, rep.Seed)
	if len(judged) > 10 {
		title += "\nrows: variant: overlaps in judged trials"
		if pre := commonPrefix(judged); pre != "" {
			title += ", every variant " + pre + "..."
		}
	}
	p := plots.NewPlot(title, xLabel, "")
	dots := draw.GlyphStyle{Color: plots.Palette[0], Radius: vg.Points(2.5), Shape: draw.RingGlyph{}}
	rows := make([]string, len(judged))
	// Two short lines per row label, as gonum squeezes the data area to fit the widest;
	// one line when there are too many rows for two to fit the height.
	sep := "\n"
	if len(judged) > 10 {
		sep = ": "
	}
	// Many rows take one line each, so their labels are long: the common prefix of the
	// names goes to the title and the counts are written short, else gonum gave the
	// labels all the width and drew the data in none (lost-updates' 17 variants).
	prefix := ""
	if sep != "\n" {
		prefix = commonPrefix(judged)
	}
	legendDone := false
	for i, v := range judged {
		overlaps := v.Tally.Overlap.Values
		row := float64(len(judged) - 1 - i) // the first variant on top
		name := strings.TrimPrefix(v.Name, prefix)
		switch {
		case sep != "\n":
			rows[int(row)] = fmt.Sprintf("%s: %d in %d", name, len(overlaps), v.Tally.Judged)
		case len(overlaps) == 0:
			rows[int(row)] = fmt.Sprintf("%s%sno overlap in %s", name, sep, trials(v.Tally.Judged))
		default:
			rows[int(row)] = fmt.Sprintf("%s%s%s in %s", name, sep, plots.Plural(len(overlaps), "overlap"),
				trials(v.Tally.Judged))
		}
		if len(overlaps) == 0 {
			continue
		}
		values := make(plotter.Values, len(overlaps))
		pts := make(plotter.XYs, len(overlaps))
		for j, x := range overlaps {
			if logX {
				x = math.Log10(x)
			}
			values[j] = x
			// A fixed vertical spread, the same on every render, keeps equal values apart.
			pts[j] = plotter.XY{X: x, Y: row + 0.08*float64(j%5-2)}
		}
		box, err := plotter.NewBoxPlot(boxWidth(len(judged)), row, values)
		if err != nil {
			return nil, fmt.Errorf("variant %s: %w", v.Name, err)
		}
		box.Horizontal = true
		box.GlyphStyle.Radius = 0 // the dots below draw every value, outliers included
		scatter, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, fmt.Errorf("variant %s: %w", v.Name, err)
		}
		scatter.GlyphStyle = dots
		p.Add(box, scatter)
		if !legendDone {
			p.Legend.Add(dotLabel, scatter)
			p.Legend.Add(boxLabel, boxThumb{})
			legendDone = true
		}
	}
	p.NominalY(rows...)
	p.Y.Min, p.Y.Max = -0.6, float64(len(rows))-0.4
	if logX {
		p.X.Tick.Marker = plots.LogTicks{}
		p.X.Min, p.X.Max = math.Log10(lo), math.Log10(hi)
		plots.PadLog(&p.X)
	} else if lo < hi/3 {
		p.X.Min, p.X.Max = 0, hi*1.05 // from zero: the widths differ by their size
	} else {
		// Overlaps bunched far from zero (pause minus TTL): zoom in to show their spread.
		pad := max((hi-lo)*0.1, hi*0.005)
		p.X.Min, p.X.Max = lo-pad, hi+pad
		p.X.Label.Text = xLabel + "\nthe axis does not start at 0"
	}
	var none []string
	for _, v := range judged {
		if len(v.Tally.Overlap.Values) == 0 {
			none = append(none, v.Name)
		}
	}
	caption := fmt.Sprintf("%s (seed %d): overlap durations, one row per variant: each ring is one overlap (two holders "+
		"inside the critical section at once), the box spans the quartiles with the median inside, whiskers reach 1.5 "+
		"IQR.", rep.Scenario, rep.Seed)
	if len(none) > 0 {
		caption += " No overlap in " + strings.Join(none, ", ") + "."
	}
	return []plots.Drawn{{Figure: plots.Figure{
		Name:    rep.Scenario + "_overlap",
		Caption: caption,
		Series:  []string{dotLabel, boxLabel},
		Looks:   []plots.Look{{Colour: 0, Marker: -1}, plots.SpreadLook},
	}, Plot: p}}, nil
}

// commonPrefix is the leading path of every variant's name, up to and with its last
// shared "/", or nothing.
func commonPrefix(vs []*results.Variant) string {
	if len(vs) < 2 {
		return ""
	}
	pre := vs[0].Name
	for _, v := range vs[1:] {
		for !strings.HasPrefix(v.Name, pre) {
			pre = pre[:len(pre)-1]
		}
	}
	if i := strings.LastIndex(pre, "/"); i >= 0 {
		return pre[:i+1]
	}
	return ""
}

// boxWidth keeps boxes of neighbouring rows apart when a run has many variants:
// at most 60% of a row's share of the data area's height (about the figure less an inch).
func boxWidth(rows int) vg.Length {
	return min(vg.Points(22), (plots.Height-vg.Inch)*0.6/vg.Length(rows))
}

const (
	dotLabel = "one overlap"
	boxLabel = "quartiles, median"
)

// boxThumb draws a small box with a median line as the legend's picture of a box plot.
type boxThumb struct{}

func (boxThumb) Thumbnail(c *draw.Canvas) {
	ls := draw.LineStyle{Color: plots.Ink, Width: vg.Points(1)}
	x0, x1 := c.Min.X, c.Max.X
	y0, y1 := c.Min.Y+(c.Max.Y-c.Min.Y)*0.15, c.Max.Y-(c.Max.Y-c.Min.Y)*0.15
	c.StrokeLines(ls, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}, {X: x0, Y: y0}})
	mid := (x0 + x1) / 2
	c.StrokeLine2(ls, mid, y0, mid, y1)
}
