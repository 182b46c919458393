package latency

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/plot/plotter"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/stats"
)

// maxSpectrumX is where the spectrum stops: 1/(1-0.99999).
const maxSpectrumX = 1e5

// spectrumFigures draws, per closed-loop condition without injected latency, the
// latency at each percentile, one line per strategy, HdrHistogram style.
func spectrumFigures(src *source) ([]plots.Drawn, error) {
	plain := src.where(func(g *stats.Group) bool { return !g.Condition.Open() && g.Condition.Network == "none" })
	keys, sets := byCondition(plain, func(c stats.Condition) stats.Condition { return c })
	var out []plots.Drawn
	for _, cond := range keys {
		groups := sets[cond]
		metric := stats.LatencyMetric(groups)
		p := plots.NewPlot(
			fmt.Sprintf("%s latency by percentile: %s", titleCase(metric), describe(cond)),
			"percentile (log scale of 1/(1-p))", "latency (ms, log scale)")
		p.X.Tick.Marker = plots.PercentileTicks{}
		p.Y.Tick.Marker = plots.LogTicks{}
		var all []plots.Series
		var empty []string
		for _, g := range groups {
			if !g.HasLatency(metric) {
				empty = append(empty, g.Strategy)
				continue
			}
			h, err := src.merged(g, metric)
			if err != nil {
				return nil, err
			}
			parts, err := src.pieces(g, metric)
			if err != nil {
				return nil, err
			}
			pts := spectrum(h)
			all = append(all,
				plots.Series{Label: g.Strategy, Strategy: g.Strategy, Points: pts, Spread: spectrumSpread(pts, parts),
					Marked: spectrumMark})
		}
		legend, err := src.styles.Add(p, plots.LogAxes{X: true, Y: true}, all)
		if err != nil {
			return nil, err
		}
		if len(legend.Labels) == 0 {
			continue
		}
		p.X.Min = 0
		plots.PadLog(&p.Y)
		out = append(out, plots.Drawn{Figure: plots.Figure{
			Name: "spectrum_" + workloadSlug(cond),
			Caption: fmt.Sprintf("Latency spectrum of %s, %s: the latency below which each percentile of requests finished, "+
				"from the HdrHistogram logs (repeats merged); markers at 50%%, 90%%, 99%%, 99.9%%... only, the line runs through "+
				"every sampled percentile.%s%s", metricLabel(metric), describe(cond), spectrumNote(groups), noData(empty)),
			Series: legend.Labels,
			Looks:  legend.Looks,
		}, Plot: p})
	}
	return out, nil
}

// merged reads and merges the histogram logs of every repeat of a group.
func (s *source) merged(g *stats.Group, metric string) (*hdrhistogram.Histogram, error) {
	var all *hdrhistogram.Histogram
	for _, c := range g.Repeats {
		h, err := s.hist(c, metric)
		if err != nil {
			return nil, err
		}
		if all == nil {
			all = h
		} else {
			all.Merge(h)
		}
	}
	return all, nil
}

// spectrum samples a histogram at percentiles spaced evenly in log(1/(1-p)), four per
// halving of the distance to 100%, up to 99.999% or to what its count can resolve.
func spectrum(h *hdrhistogram.Histogram) plotter.XYs {
	if h == nil || h.TotalCount() == 0 {
		return nil
	}
	limit := math.Min(maxSpectrumX, float64(h.TotalCount()))
	var pts plotter.XYs
	var xs []float64
	for k := 0; math.Pow(2, float64(k)/4) <= limit; k++ {
		xs = append(xs, math.Pow(2, float64(k)/4))
	}
	// The decades (90%, 99%...) too: the points that carry the spread's bars.
	for x := 10.0; x <= limit; x *= 10 {
		xs = append(xs, x)
	}
	sort.Float64s(xs)
	for _, x := range xs {
		p := 100 * (1 - 1/x)
		v := h.ValueAtQuantile(p)
		if v <= 0 {
			continue // a log axis cannot show zero
		}
		pts = append(pts, plotter.XY{X: x, Y: plots.MS(float64(v))})
	}
	return pts
}

// spectrumMark picks the spectrum's points that carry a glyph: 50% and the decades
// (90%, 99%, 99.9%...). A glyph on each of the forty-odd samples hid the lines under
// the markers and told nothing the line does not.
func spectrumMark(pt plotter.XY) bool {
	if pt.X == 2 {
		return true
	}
	decade := math.Log10(pt.X)
	return pt.X >= 10 && math.Abs(decade-math.Round(decade)) < 1e-9
}

// describe puts a condition in words for titles and captions.
func describe(c stats.Condition) string {
	keys := fmt.Sprintf("%d keys", c.Keys)
	if c.Keys == 1 {
		keys = "1 key"
	}
	clients := fmt.Sprintf("%d clients", c.Clients)
	if c.Clients == 1 {
		clients = "1 client"
	}
	return fmt.Sprintf("%s on %s, hold %s, TTL %s", clients, keys, c.Hold, c.TTL)
}

// missing lists, once each, the strategies of groups that recorded no latency of metric.
func missing(groups []*stats.Group, metric string) []string {
	var out []string
	seen := map[string]bool{}
	for _, g := range groups {
		if !g.HasLatency(metric) && !seen[g.Strategy] {
			seen[g.Strategy] = true
			out = append(out, g.Strategy)
		}
	}
	return out
}

// noData names the strategies a figure could not draw because they recorded nothing.
func noData(strategies []string) string {
	if len(strategies) == 0 {
		return ""
	}
	return fmt.Sprintf(" Not drawn, no latency recorded (never acquired): %s.", strings.Join(strategies, ", "))
}
