package plots

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// Log axes are drawn as linear axes over log10 of the data, with ticks labelled by the
// real values: gonum's LogScale misplaces the centred axis label's glyph box (it takes
// the arithmetic midpoint), which squeezes the data area.

// Log10XY maps points onto log10 axes, as asked per axis; values <= 0 are dropped.
func Log10XY(pts plotter.XYs, x, y bool) plotter.XYs {
	var out plotter.XYs
	for _, pt := range pts {
		if (x && pt.X <= 0) || (y && pt.Y <= 0) {
			continue
		}
		if x {
			pt.X = math.Log10(pt.X)
		}
		if y {
			pt.Y = math.Log10(pt.Y)
		}
		out = append(out, pt)
	}
	return out
}

// PercentileTicks labels a log10 axis of 1/(1-p): 0 is 0%, 1 is 90%, 5 is 99.999%.
type PercentileTicks struct{}

func (PercentileTicks) Ticks(min, max float64) []plot.Tick {
	labels := []string{"0%", "90%", "99%", "99.9%", "99.99%", "99.999%", "99.9999%"}
	var ticks []plot.Tick
	for i, label := range labels {
		if float64(i) > max+1e-9 {
			break
		}
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: label})
	}
	return ticks
}

// LogTicks marks a log10 axis at 1, 2 and 5 times each power of ten, labelled with the
// real value, so a range narrower than a decade still gets readable numbers.
type LogTicks struct{}

func (LogTicks) Ticks(lmin, lmax float64) []plot.Tick {
	min, max := math.Pow(10, lmin), math.Pow(10, lmax)
	if min > max {
		return nil
	}
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(min)); e <= math.Ceil(math.Log10(max)); e++ {
		base := math.Pow10(int(e))
		for _, m := range []float64{1, 2, 5} {
			v := m * base
			if v < min/1.0001 || v > max*1.0001 {
				continue
			}
			ticks = append(ticks, plot.Tick{Value: math.Log10(v), Label: strconv.FormatFloat(v, 'g', -1, 64)})
		}
	}
	if len(ticks) < 2 { // less than a 1-2-5 step wide: label the ends
		ticks = []plot.Tick{
			{Value: lmin, Label: strconv.FormatFloat(min, 'g', 3, 64)},
			{Value: lmax, Label: strconv.FormatFloat(max, 'g', 3, 64)},
		}
	}
	return ticks
}

// PadLog widens a log10 axis by a quarter on each side so that lines do not sit on
// the frame.
func PadLog(a *plot.Axis) {
	a.Min -= math.Log10(1.25)
	a.Max += math.Log10(1.25)
}

// MS converts nanoseconds to milliseconds, the unit of every latency axis.
func MS(ns float64) float64 { return ns / 1e6 }

// cleanTicks places gonum's default linear ticks but labels them with the shortest
// exact number (25, not 25.00).
type cleanTicks struct{}

func (cleanTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'g', 6, 64)
		}
	}
	return ticks
}

// logSpan is the ratio of the largest to the smallest value beyond which an axis is
// drawn on a log scale: past it the small values of a linear axis lie on its zero line.
const logSpan = 20

// Wide says whether the positive values span more than logSpan.
func Wide(values []float64) bool {
	lo, hi := math.Inf(1), 0.0
	for _, v := range values {
		if v > 0 {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	return hi > 0 && hi/lo > logSpan
}

// logOrFloor is log10 of v, or at a zero or negative v, the point itself: a bar
// cannot reach zero on a log axis.
func logOrFloor(v, logPoint float64) float64 {
	if v <= 0 {
		return logPoint
	}
	return math.Log10(v)
}

// YScale sets a value axis linear from zero, or log10 with labelled ticks when the
// values are wide, and names the scale in the label; it says which it chose.
func YScale(p *plot.Plot, label string, values []float64) bool {
	if Wide(values) {
		p.Y.Label.Text = LogLabel(label)
		p.Y.Tick.Marker = LogTicks{}
		return true
	}
	p.Y.Label.Text = label
	p.Y.Min = 0
	return false
}

// LogLabel says an axis is on a log scale inside the label's bracketed unit when it has
// one ("latency (ms, log scale)"), else after it.
func LogLabel(label string) string {
	if strings.HasSuffix(label, ")") {
		return strings.TrimSuffix(label, ")") + ", log scale)"
	}
	return label + " (log scale)"
}

// MeasuredX ticks a linear x axis at exactly the values measured (when their labels
// stay apart) and leaves a margin beyond the first and last, so that no point, bar or
// line end sits on the frame or on the value axis.
func MeasuredX(p *plot.Plot, xs []float64) {
	if ticks := MeasuredTicks(xs); TicksApart(ticks) {
		p.X.Tick.Marker = ticks
	}
	PadLinear(&p.X, xs)
}

// XsOf is every x of every series, in data units.
func XsOf(all []Series) []float64 {
	var xs []float64
	for _, sr := range all {
		for _, pt := range sr.Points {
			xs = append(xs, pt.X)
		}
	}
	return xs
}

// ClientTicks labels exactly the client counts that were measured.
func ClientTicks(xs []float64) plot.ConstantTicks {
	seen := map[float64]bool{}
	var ticks plot.ConstantTicks
	for _, x := range SortedCopy(xs) {
		if !seen[x] {
			seen[x] = true
			ticks = append(ticks, plot.Tick{Value: math.Log10(x), Label: fmt.Sprint(x)})
		}
	}
	return ticks
}

// MeasuredTicks labels exactly the x values that were run (the delays asked for).
func MeasuredTicks(xs []float64) plot.ConstantTicks {
	var ticks plot.ConstantTicks
	seen := map[float64]bool{}
	sorted := append([]float64(nil), xs...)
	sort.Float64s(sorted)
	for _, x := range sorted {
		if !seen[x] {
			seen[x] = true
			ticks = append(ticks, plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'g', -1, 64)})
		}
	}
	return ticks
}

// TicksApart says whether labels at the measured x values stay readable: at most
// ten, none closer than a fifteenth of the span (10 ms buckets over 200 ms are not).
func TicksApart(ticks plot.ConstantTicks) bool {
	if len(ticks) < 2 || len(ticks) > 10 {
		return len(ticks) == 1
	}
	span := ticks[len(ticks)-1].Value - ticks[0].Value
	for i := 1; i < len(ticks); i++ {
		if ticks[i].Value-ticks[i-1].Value < span/15 {
			return false
		}
	}
	return true
}

// PadLinear widens a linear axis by 5% of the data's span on each side, so that
// points at the ends are not cut by the frame.
func PadLinear(a *plot.Axis, xs []float64) {
	if len(xs) == 0 {
		return
	}
	lo, hi := xs[0], xs[0]
	for _, x := range xs {
		lo, hi = min(lo, x), max(hi, x)
	}
	pad := (hi - lo) * 0.05
	if pad == 0 {
		pad = 1
	}
	a.Min, a.Max = lo-pad, hi+pad
}

func SortedCopy(xs []float64) []float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s
}
