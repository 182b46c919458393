package plots

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// percentileTicks labels an axis of x = 1/(1-p): 1 is 0%, 10 is 90%, 100000 is 99.999%.
type percentileTicks struct{}

func (percentileTicks) Ticks(min, max float64) []plot.Tick {
	labels := []string{"0%", "90%", "99%", "99.9%", "99.99%", "99.999%", "99.9999%"}
	var ticks []plot.Tick
	for i, label := range labels {
		v := math.Pow10(i)
		if v > max*1.0001 {
			break
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: label})
	}
	return ticks
}

// logTicks marks a log axis at 1, 2 and 5 times each power of ten, labelled, so a
// range narrower than a decade still gets readable numbers.
type logTicks struct{}

func (logTicks) Ticks(min, max float64) []plot.Tick {
	if min <= 0 || max <= 0 || min > max {
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
			ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', -1, 64)})
		}
	}
	if len(ticks) < 2 { // less than a 1-2-5 step wide: label the ends
		ticks = []plot.Tick{
			{Value: min, Label: strconv.FormatFloat(min, 'g', 3, 64)},
			{Value: max, Label: strconv.FormatFloat(max, 'g', 3, 64)},
		}
	}
	return ticks
}

// padLog widens a log axis a little beyond its data so that lines do not sit on the frame.
func padLog(a *plot.Axis) {
	if a.Min > 0 && a.Max > 0 {
		a.Min /= 1.25
		a.Max *= 1.25
	}
}

// ms converts nanoseconds to milliseconds, the unit of every latency axis.
func ms(ns float64) float64 { return ns / 1e6 }

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
