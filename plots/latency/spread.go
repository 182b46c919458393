package latency

import (
	"fmt"
	"sort"

	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/stats"
)

// A point's spread is the middle half (25th to 75th percentile) of its samples: the
// repeats when the cell was repeated, else the intervals its measured part was cut
// into. Fewer than two samples give no spread.

// samplesOf picks a group's samples of f: one per repeat when there are several, else
// one per interval of its single cell.
func samplesOf(g *stats.Group, whole func(*resultsdir.Cell) float64,
	piece func(*resultsdir.Interval) float64) []float64 {
	var out []float64
	if len(g.Repeats) >= 2 {
		for _, c := range g.Repeats {
			out = append(out, whole(c))
		}
		return out
	}
	for _, c := range g.Repeats {
		for i := range c.Intervals {
			out = append(out, piece(&c.Intervals[i]))
		}
	}
	return out
}

// middleHalf is the 25th and 75th percentile of values (linear between ranks).
func middleHalf(values []float64) (plots.Span, bool) {
	if len(values) < 2 {
		return plots.Span{}, false
	}
	s := append([]float64(nil), values...)
	sort.Float64s(s)
	at := func(q float64) float64 {
		r := q * float64(len(s)-1)
		i := int(r)
		if i+1 >= len(s) {
			return s[len(s)-1]
		}
		return s[i] + (r-float64(i))*(s[i+1]-s[i])
	}
	return plots.Span{Lo: at(0.25), Hi: at(0.75)}, true
}

// throughputSpread is the middle half of a group's cycles per second.
func throughputSpread(g *stats.Group) (plots.Span, bool) {
	return middleHalf(samplesOf(g,
		func(c *resultsdir.Cell) float64 { return c.CyclesPerSecond },
		func(iv *resultsdir.Interval) float64 { return iv.CyclesPerSecond }))
}

// latencySpread is the middle half of a group's percentile p of metric, in ms.
func latencySpread(g *stats.Group, metric string, p stats.Percentile) (plots.Span, bool) {
	return middleHalf(samplesOf(g,
		func(c *resultsdir.Cell) float64 { return plots.MS(float64(p.Of(c.Latency[metric]))) },
		func(iv *resultsdir.Interval) float64 { return plots.MS(float64(p.Of(iv.Latency[metric]))) }))
}

// spreadKinds names what a set of groups' spreads were taken over, for captions.
func spreadKinds(groups []*stats.Group) string {
	repeats, pieces := false, false
	for _, g := range groups {
		if len(g.Repeats) >= 2 {
			repeats = true
		} else if len(g.Repeats) == 1 && len(g.Repeats[0].Intervals) >= 2 {
			pieces = true
		}
	}
	switch {
	case repeats && pieces:
		return "its repeats (its intervals where it was not repeated)"
	case repeats:
		return "its repeats"
	case pieces:
		return fmt.Sprintf("its %d intervals", len(firstWithIntervals(groups).Intervals))
	}
	return ""
}

func firstWithIntervals(groups []*stats.Group) *resultsdir.Cell {
	for _, g := range groups {
		if len(g.Repeats) == 1 && len(g.Repeats[0].Intervals) >= 2 {
			return g.Repeats[0]
		}
	}
	return nil
}

// spreadNote is the caption's sentence on the bars, or nothing when no point has any.
func spreadNote(groups []*stats.Group) string {
	kind := spreadKinds(groups)
	if kind == "" {
		return " No point has a spread to draw (one repeat, one interval)."
	}
	return " Bars: the middle half (25th to 75th percentile) of each cell's value over " + kind + "."
}

// spreadOrPoint turns a spread that may be missing into one for a point of value v: no
// bar (both ends at v) when there is none.
func spreadOrPoint(sp plots.Span, ok bool) func(v float64) plots.Span {
	return func(v float64) plots.Span {
		if !ok {
			return plots.Span{Lo: v, Hi: v}
		}
		return sp
	}
}

// scaleNote tells the caption that values are on a log axis.
func scaleNote(logY bool) string {
	if logY {
		return " (log scale: the values span more than a factor of 20)"
	}
	return ""
}
