package sweep

import (
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/lockbench/lockbench/bench"
	"github.com/lockbench/lockbench/resultsdir"
)

// piece is one interval of a measurement, whatever the workload: how long it ran,
// what it completed, and its latency histograms by metric.
type piece struct {
	elapsed    time.Duration
	granted    int64
	histograms map[string]*hdrhistogram.Histogram
}

// intervals is what the measured run is cut into: IntervalCount pieces of equal length.
func (r *Runner) intervals() bench.Intervals {
	k := r.Config.IntervalCount()
	if k < 2 {
		return bench.Intervals{}
	}
	return bench.Intervals{Count: k, Every: r.Config.Duration.D() / time.Duration(k)}
}

// summarizePieces turns the pieces into the cell's intervals; none when unsplit.
func summarizePieces(pieces []piece) []resultsdir.Interval {
	var out []resultsdir.Interval
	for _, p := range pieces {
		iv := resultsdir.Interval{Elapsed: resultsdir.Duration(p.elapsed), Granted: p.granted,
			Latency: map[string]resultsdir.Summary{}}
		if p.elapsed > 0 {
			iv.CyclesPerSecond = float64(p.granted) / p.elapsed.Seconds()
		}
		for metric, h := range p.histograms {
			iv.Latency[metric] = resultsdir.Summarize(h)
		}
		out = append(out, iv)
	}
	return out
}

// spans lays one metric's histograms end to end from start, one per piece, for the
// cell's histogram log; the whole histogram when the measurement was not split.
func spans(metric string, whole *hdrhistogram.Histogram, pieces []piece, start time.Time,
	elapsed time.Duration) []resultsdir.Span {
	if len(pieces) == 0 {
		return []resultsdir.Span{{H: whole, Start: start, End: start.Add(elapsed)}}
	}
	out := make([]resultsdir.Span, len(pieces))
	at := start
	for i, p := range pieces {
		out[i] = resultsdir.Span{H: p.histograms[metric], Start: at, End: at.Add(p.elapsed)}
		at = at.Add(p.elapsed)
	}
	return out
}
