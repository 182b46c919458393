package floor

import (
	"math"
	"strconv"
	"time"
)

// Wait is a floor wait in seconds; +Inf when it grows without bound (a saturated key).
type Wait float64

// Unbounded is the wait of a saturated queue.
var Unbounded = Wait(math.Inf(1))

// IsUnbounded says the wait grows without bound.
func (w Wait) IsUnbounded() bool { return math.IsInf(float64(w), 1) }

// Duration is the wait as a Duration; false when it is unbounded or too long for one.
func (w Wait) Duration() (time.Duration, bool) {
	ns := float64(w) * 1e9
	if w.IsUnbounded() || ns >= math.MaxInt64 || math.IsNaN(ns) {
		return 0, false
	}
	return time.Duration(math.Round(ns)), true
}

// String prints three significant digits in the unit a reader scans ("4.17ms"), or "unbounded".
func (w Wait) String() string {
	s := float64(w)
	switch {
	case w.IsUnbounded():
		return "unbounded"
	case math.IsNaN(s):
		return "NaN"
	case s == 0:
		return "0"
	case s < 1e-6:
		return strconv.FormatFloat(s*1e9, 'g', 3, 64) + "ns"
	case s < 1e-3:
		return strconv.FormatFloat(s*1e6, 'g', 3, 64) + "µs"
	case s < 1:
		return strconv.FormatFloat(s*1e3, 'g', 3, 64) + "ms"
	}
	return strconv.FormatFloat(s, 'g', 3, 64) + "s"
}
