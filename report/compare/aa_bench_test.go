package compare

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/lockbench/lockbench/report/synth"
	"github.com/lockbench/lockbench/resultsdir"
)

// slowdowns are the changes the A/A benchmarks try, 0 being the A/A test itself.
var slowdowns = []float64{0, 0.01, 0.02, 0.03, 0.05, 0.07, 0.10, 0.15, 0.20, 0.30, 0.50}

// tally counts verdicts per metric kind over many comparisons.
type tally struct{ worse, flagged, rows map[string]int }

func newTally() *tally {
	return &tally{worse: map[string]int{}, flagged: map[string]int{}, rows: map[string]int{}}
}

func (t *tally) add(res Result) {
	for _, r := range res.Rows {
		m := metricKind(r.Metric)
		t.rows[m]++
		if r.Verdict == Worse {
			t.worse[m]++
		}
		if r.Verdict == Worse || r.Verdict == Better {
			t.flagged[m]++
		}
	}
}

// report gives, per metric, the share of figures found worse (for a slowdown) or
// flagged either way (for none: the A/A false-positive share), in percent.
func (t *tally) report(b *testing.B, slowdown float64) {
	for _, m := range []string{"p50", "p99", "rate"} {
		if t.rows[m] == 0 {
			continue
		}
		if slowdown == 0 {
			b.ReportMetric(100*float64(t.flagged[m])/float64(t.rows[m]), "%flagged-"+m)
		} else {
			b.ReportMetric(100*float64(t.worse[m])/float64(t.rows[m]), "%worse-"+m)
		}
	}
	b.ReportMetric(0, "ns/op") // the time per comparison is beside the point
}

// BenchmarkAASynthetic compares a stationary synthetic source (10 intervals a cell)
// with itself slowed down by each of slowdowns, one pair of runs per iteration, and
// reports how often each metric was found worse: at 0 the false-positive share, above
// it the power. Run with -benchtime=200x for 6000 figures a metric.
func BenchmarkAASynthetic(b *testing.B) {
	for _, s := range slowdowns {
		b.Run(fmt.Sprintf("slowdown=%.0f%%", 100*s), func(b *testing.B) {
			t := newTally()
			for i := 0; i < b.N; i++ {
				o := synth.Options{Stores: fixtureStores, Small: true, Stationary: true, Seed: uint64(2*i + 2)}
				slow := o
				slow.Seed, slow.Slowdown = uint64(2*i+3), 1+s
				t.add(Compare([]*resultsdir.Run{synth.Generate(o)}, []*resultsdir.Run{synth.Generate(slow)}, Options{Stores: fixtureStores}))
			}
			t.report(b, s)
		})
	}
}

// BenchmarkAAMeasuredNoise does the same under the noise of a real run: with
// LOCKBENCH_AA_DIR naming a results folder, each iteration draws both sides' intervals
// from each cell's recorded ones (with replacement), slows one side, and compares.
// It measures the smallest change the intervals of one run find reliably on this
// machine; drift between runs, which one run's intervals cannot show, comes on top.
func BenchmarkAAMeasuredNoise(b *testing.B) {
	dir := os.Getenv("LOCKBENCH_AA_DIR")
	if dir == "" {
		b.Skip("set LOCKBENCH_AA_DIR to a results folder recorded with intervals")
	}
	run, err := resultsdir.ReadRun(dir)
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range slowdowns {
		b.Run(fmt.Sprintf("slowdown=%.0f%%", 100*s), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, uint64(1000*s)))
			t := newTally()
			for i := 0; i < b.N; i++ {
				t.add(Compare([]*resultsdir.Run{resample(run, 1, rng)}, []*resultsdir.Run{resample(run, 1+s, rng)}, Options{Stores: fixtureStores}))
			}
			t.report(b, s)
		})
	}
}

// resample copies run with each cell's intervals drawn again from its own, with
// replacement, latencies multiplied and rates divided by slowdown.
func resample(run *resultsdir.Run, slowdown float64, rng *rand.Rand) *resultsdir.Run {
	out := *run
	out.Cells = make([]resultsdir.Cell, len(run.Cells))
	for i, c := range run.Cells {
		drawn := make([]resultsdir.Interval, len(c.Intervals))
		for j := range drawn {
			iv := c.Intervals[rng.IntN(len(c.Intervals))]
			iv.CyclesPerSecond /= slowdown
			latency := map[string]resultsdir.Summary{}
			for m, s := range iv.Latency {
				s.P50 = resultsdir.Duration(float64(s.P50) * slowdown)
				s.P99 = resultsdir.Duration(float64(s.P99) * slowdown)
				latency[m] = s
			}
			iv.Latency = latency
			drawn[j] = iv
		}
		c.Intervals = drawn
		out.Cells[i] = c
	}
	return &out
}
