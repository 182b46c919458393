package synth

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/lockbench/lockbench/resultsdir"
)

// IntervalSpread is the relative spread (standard deviation) of throughput between the
// intervals of one synthetic cell.
const IntervalSpread = 0.03

// intervalStream sets the random stream of interval throughput apart from the one the
// latencies are drawn from, so that adding intervals left the latencies as they were.
const intervalStream = 1 << 40

// piece is one consecutive interval of a synthetic cell.
type piece struct {
	start, end time.Time
	granted    int64
	histograms map[string]*hdrhistogram.Histogram
}

type pieces []piece

// newPieces cuts a cell of elapsed into k equal pieces.
func newPieces(k int, elapsed time.Duration) pieces {
	out := make(pieces, k)
	for i := range out {
		out[i] = piece{
			start:      Started.Add(elapsed * time.Duration(i) / time.Duration(k)),
			end:        Started.Add(elapsed * time.Duration(i+1) / time.Duration(k)),
			histograms: map[string]*hdrhistogram.Histogram{},
		}
	}
	return out
}

// record adds a latency of metric to piece i.
func (ps pieces) record(metric string, i int, v int64) {
	if len(ps) > 1 {
		ps.histogram(i, metric).RecordValue(v)
	}
}

// histogram is piece i's histogram of metric, empty until something is recorded.
func (ps pieces) histogram(i int, metric string) *hdrhistogram.Histogram {
	h, ok := ps[i].histograms[metric]
	if !ok {
		h = hdrhistogram.New(1000, int64(time.Minute), 2)
		ps[i].histograms[metric] = h
	}
	return h
}

// spans are one metric's pieces for a histogram log; the whole histogram when the
// cell is in one piece.
func (ps pieces) spans(metric string, whole *hdrhistogram.Histogram) []resultsdir.Span {
	if len(ps) < 2 {
		return []resultsdir.Span{{H: whole, Start: Started, End: ps[0].end}}
	}
	out := make([]resultsdir.Span, len(ps))
	for i, p := range ps {
		out[i] = resultsdir.Span{H: ps.histogram(i, metric), Start: p.start, End: p.end}
	}
	return out
}

// drawThroughput gives each piece cycles at rate, spread by IntervalSpread and drawn
// independently, and returns the rate they complete together: the cell's own.
func (ps pieces) drawThroughput(rate float64, rng *rand.Rand) float64 {
	var granted int64
	var elapsed time.Duration
	for i := range ps {
		e := ps[i].end.Sub(ps[i].start)
		ps[i].granted = max(int64(math.Round(rate*(1+IntervalSpread*rng.NormFloat64())*e.Seconds())), 0)
		granted += ps[i].granted
		elapsed += e
	}
	return float64(granted) / elapsed.Seconds()
}

// intervals summarizes the pieces.
func (ps pieces) intervals() []resultsdir.Interval {
	out := make([]resultsdir.Interval, len(ps))
	for i, p := range ps {
		elapsed := p.end.Sub(p.start)
		out[i] = resultsdir.Interval{Elapsed: resultsdir.Duration(elapsed), Granted: p.granted,
			CyclesPerSecond: float64(p.granted) / elapsed.Seconds(), Latency: map[string]resultsdir.Summary{}}
		for metric, h := range p.histograms {
			out[i].Latency[metric] = resultsdir.Summarize(h)
		}
	}
	return out
}
