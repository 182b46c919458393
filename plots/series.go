package plots

import (
	"fmt"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/lockbench/lockbench/report/digest"
)

// series is one legend entry: a strategy's points, drawn in its colour.
type series struct {
	label    string
	strategy string
	dashed   bool
	points   plotter.XYs
}

// add draws each series as a line with a glyph on every measured point, and names it
// in the legend. It returns the labels in legend order.
func (s *source) add(p *plot.Plot, all []series) ([]string, error) {
	var labels []string
	for _, sr := range all {
		if len(sr.points) == 0 {
			continue
		}
		sort.SliceStable(sr.points, func(i, j int) bool { return sr.points[i].X < sr.points[j].X })
		line, pts, err := plotter.NewLinePoints(sr.points)
		if err != nil {
			return nil, fmt.Errorf("series %s: %w", sr.label, err)
		}
		line.LineStyle = s.styles.line(sr.strategy, sr.dashed)
		pts.GlyphStyle = s.styles.glyph(sr.strategy)
		p.Add(line, pts)
		p.Legend.Add(sr.label, line, pts)
		labels = append(labels, sr.label)
	}
	return labels, nil
}

// byCondition splits groups into sets that share every condition field the key keeps,
// in condition order.
func byCondition(groups []*digest.Group, keep func(digest.Condition) digest.Condition) ([]digest.Condition, map[digest.Condition][]*digest.Group) {
	sets := map[digest.Condition][]*digest.Group{}
	var keys []digest.Condition
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
func strategiesOf(groups []*digest.Group) []string { return digest.Strategies(groups) }

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
