package merge

import (
	"time"
)

// window is a span of time on the target's clock.
type window struct{ start, end time.Time }

// onTarget is when a share's measured part started, on the target's clock: the
// workers' own clocks may disagree, the target's is one.
func onTarget(s share) time.Time {
	return s.cell.Worker.ActualStart.Add(s.cell.Worker.ClockOffsetToTarget.D())
}

// commonWindows are the spans every share was measuring in, per interval and whole:
// from the last share's start to the first share's end.
func commonWindows(name string, shares []share, pieces int) ([]window, window, error) {
	windows := make([]window, pieces)
	var whole window
	for k, s := range shares {
		at := onTarget(s)
		w := window{at, at.Add(s.cell.Elapsed.D())}
		whole = intersect(whole, w, k == 0)
		for i := range pieces {
			end := at.Add(s.cell.Intervals[i].Elapsed.D())
			windows[i] = intersect(windows[i], window{at, end}, k == 0)
			at = end
		}
	}
	if !whole.end.After(whole.start) {
		return nil, whole, refuse("cell %s: the workers' measured parts do not overlap (starts too far apart)", name)
	}
	for i := range windows {
		if windows[i].end.Before(windows[i].start) {
			windows[i].end = windows[i].start // an interval the workers never shared: no time, no rate
		}
	}
	return windows, whole, nil
}

func intersect(a, b window, first bool) window {
	if first {
		return b
	}
	if b.start.After(a.start) {
		a.start = b.start
	}
	if b.end.Before(a.end) {
		a.end = b.end
	}
	return a
}
