package compare

import (
	"github.com/lockbench/lockbench/stats"
)

// What a row's samples are.
const (
	// ByRepeat: one figure per repeat of the cell (`run --repeat N`, or several
	// folders a side): independent runs, the stronger test.
	ByRepeat = "repeats"
	// ByInterval: one figure per interval of the cell's measured part (`run
	// --intervals K`), pooled over its repeats: not independent, they share a run.
	ByInterval = "intervals"
	// ByRun: one figure per cell and side, with no intervals to fall back on.
	ByRun = "runs"
)

// sampleKind picks the samples of a pair of groups: the repeats when they are
// enough to reach level (alpha over the number of figures compared), else the
// intervals when both sides recorded them, else whatever repeats there are.
func sampleKind(old, new *stats.Group, level float64) string {
	if len(old.Repeats) >= 2 && len(new.Repeats) >= 2 && smallestP(len(old.Repeats), len(new.Repeats)) < level {
		return ByRepeat
	}
	if hasIntervals(old) && hasIntervals(new) {
		return ByInterval
	}
	return ByRun
}

// hasIntervals says whether every repeat of g was cut into at least two intervals.
func hasIntervals(g *stats.Group) bool {
	for _, c := range g.Repeats {
		if len(c.Intervals) < 2 {
			return false
		}
	}
	return len(g.Repeats) > 0
}

// samples reads metric m from g as kind says.
func samples(g *stats.Group, m metric, kind string) []float64 {
	var out []float64
	for _, c := range g.Repeats {
		if kind != ByInterval {
			if v, ok := m.whole(c); ok {
				out = append(out, v)
			}
			continue
		}
		for i := range c.Intervals {
			if v, ok := m.piece(&c.Intervals[i]); ok {
				out = append(out, v)
			}
		}
	}
	return out
}
