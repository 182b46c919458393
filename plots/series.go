package plots

import (
	"fmt"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/lockbench/lockbench/stats"
)

// series is one legend entry: a strategy's points, drawn in its look, in data units.
type series struct {
	label    string
	strategy string
	dashed   bool // the strategy's second line in the figure
	points   plotter.XYs
	// spread, when set, is each point's low and high value (same order as points),
	// drawn as an error bar.
	spread []span
	// marked, when set, says which points (in data units) get a glyph; the line still
	// runs through every point. Nil marks every point.
	marked func(pt plotter.XY) bool
	// pointsOnly draws glyphs (and bars) without the joining line; lineOnly draws the
	// line without glyphs: measurements beside the model they are read against, so
	// that where the two agree both still show.
	pointsOnly, lineOnly bool
}

// span is the low and high end of a point's spread.
type span struct{ lo, hi float64 }

// logAxes says which axes of a figure are drawn over log10 of the data.
type logAxes struct{ x, y bool }

// entries are the legend of a figure: labels and the look of each.
type entries struct {
	labels []string
	looks  []look
}

func (e *entries) add(label string, l look) {
	e.labels = append(e.labels, label)
	e.looks = append(e.looks, l)
}

// add draws each series as a line with a glyph on every measured point (or on those
// its marked picks) and its spread as error bars, and names it in the legend.
func (s styles) add(p *plot.Plot, axes logAxes, all []series) (entries, error) {
	var legend entries
	for _, sr := range all {
		pts, spread, kept := onAxes(sr, axes)
		if len(pts) == 0 {
			continue
		}
		l := s.look(sr.strategy, sr.dashed)
		if barred := withBars(pts, spread); len(barred.XYs) > 0 {
			bars, err := plotter.NewYErrorBars(barred)
			if err != nil {
				return entries{}, fmt.Errorf("series %s: %w", sr.label, err)
			}
			bars.LineStyle = lineStyle(l)
			bars.LineStyle.Width, bars.LineStyle.Dashes = vg.Points(0.8), nil
			bars.CapWidth = vg.Points(5)
			p.Add(bars)
		}
		line, err := plotter.NewLine(pts)
		if err != nil {
			return entries{}, fmt.Errorf("series %s: %w", sr.label, err)
		}
		var at plotter.XYs
		for i, pt := range pts {
			if sr.marked == nil || sr.marked(sr.points[kept[i]]) {
				at = append(at, pt)
			}
		}
		if len(at) == 0 { // a series none of whose points is picked still shows its glyph
			at = pts[len(pts)-1:]
		}
		glyphs, err := plotter.NewScatter(at)
		if err != nil {
			return entries{}, fmt.Errorf("series %s: %w", sr.label, err)
		}
		line.LineStyle = lineStyle(l)
		glyphs.GlyphStyle = glyphStyle(l)
		switch {
		case sr.pointsOnly:
			p.Add(glyphs)
			p.Legend.Add(sr.label, glyphs)
		case sr.lineOnly && len(pts) > 1:
			p.Add(line)
			p.Legend.Add(sr.label, line)
		default:
			p.Add(line, glyphs)
			p.Legend.Add(sr.label, line, glyphs)
		}
		legend.add(sr.label, l)
	}
	return legend, nil
}

// withBars keeps the points whose spread is not nil: a bar of no length would draw
// as a stray cap.
func withBars(pts plotter.XYs, spread plotter.YErrors) intervals {
	var out intervals
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
func onAxes(sr series, axes logAxes) (pts plotter.XYs, errs plotter.YErrors, kept []int) {
	order := make([]int, len(sr.points))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return sr.points[order[a]].X < sr.points[order[b]].X })
	for _, i := range order {
		mapped := log10XY(plotter.XYs{sr.points[i]}, axes.x, axes.y)
		if len(mapped) == 0 {
			continue
		}
		pt := mapped[0]
		pts = append(pts, pt)
		kept = append(kept, i)
		if len(sr.spread) == 0 {
			continue
		}
		lo, hi := sr.spread[i].lo, sr.spread[i].hi
		if axes.y {
			lo, hi = logOrFloor(lo, pt.Y), logOrFloor(hi, pt.Y)
		}
		errs = append(errs, struct{ Low, High float64 }{max(pt.Y-lo, 0), max(hi-pt.Y, 0)})
	}
	if len(sr.spread) == 0 {
		return pts, nil, kept
	}
	return pts, errs, kept
}

// byCondition splits groups into sets that share every condition field the key keeps,
// in condition order.
func byCondition(groups []*stats.Group, keep func(stats.Condition) stats.Condition) ([]stats.Condition, map[stats.Condition][]*stats.Group) {
	sets := map[stats.Condition][]*stats.Group{}
	var keys []stats.Condition
	for _, g := range groups {
		k := keep(g.Condition)
		if _, ok := sets[k]; !ok {
			keys = append(keys, k)
		}
		sets[k] = append(sets[k], g)
	}
	sort.SliceStable(keys, func(i, j int) bool { return keys[i].Less(keys[j]) })
	return keys, sets
}

// strategiesOf lists the strategies of groups in safety order.
func strategiesOf(groups []*stats.Group) []string { return stats.Strategies(groups) }

// slug turns condition parts into a file-name-safe suffix.
func slug(parts ...string) string {
	s := strings.Join(parts, "_")
	return strings.NewReplacer("µ", "u", " ", "", "/", "-", "+", "").Replace(s)
}

// metricLabel names a latency metric in axis labels.
func metricLabel(metric string) string {
	if metric == "acquire" {
		return "acquire latency (retries included)"
	}
	return metric + " latency"
}

// distinct counts distinct values.
func distinct(values []float64) int {
	seen := map[float64]bool{}
	for _, v := range values {
		seen[v] = true
	}
	return len(seen)
}

// titleCase capitalises a metric name for the start of a title.
func titleCase(metric string) string {
	if metric == "" {
		return metric
	}
	return strings.ToUpper(metric[:1]) + metric[1:]
}
