package latency

import (
	"math"

	"github.com/HdrHistogram/hdrhistogram-go"
	"gonum.org/v1/plot/plotter"

	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/stats"
)

// pieces reads the interval histograms of every repeat of a group, pooled.
func (s *source) pieces(g *stats.Group, metric string) ([]*hdrhistogram.Histogram, error) {
	if s.intervals == nil {
		return nil, nil
	}
	var all []*hdrhistogram.Histogram
	for _, c := range g.Repeats {
		hs, err := s.intervals(c, metric)
		if err != nil {
			return nil, err
		}
		all = append(all, hs...)
	}
	return all, nil
}

// spectrumSpread bars a spectrum at its decades (90%, 99%, 99.9%...) with the middle
// half of that percentile over the intervals, where every interval holds enough
// requests to resolve it; elsewhere no bar.
func spectrumSpread(pts plotter.XYs, parts []*hdrhistogram.Histogram) []plots.Span {
	if len(parts) < 2 {
		return nil
	}
	least := int64(math.MaxInt64)
	for _, h := range parts {
		least = min(least, h.TotalCount())
	}
	out := make([]plots.Span, len(pts))
	for i, pt := range pts {
		out[i] = plots.Span{Lo: pt.Y, Hi: pt.Y}
		decade := math.Log10(pt.X)
		if pt.X < 10 || decade != math.Trunc(decade) || float64(least) < pt.X {
			continue
		}
		var vs []float64
		for _, h := range parts {
			vs = append(vs, plots.MS(float64(h.ValueAtQuantile(100*(1-1/pt.X)))))
		}
		if sp, ok := middleHalf(vs); ok {
			out[i] = sp
		}
	}
	return out
}

// spectrumNote says what the spectrum's bars are.
func spectrumNote(groups []*stats.Group) string {
	if spreadKinds(groups) == "" {
		return ""
	}
	return " Bars at 90%, 99%, 99.9%...: the middle half of that percentile over the cell's intervals, where every " +
		"interval holds enough requests to resolve it."
}
