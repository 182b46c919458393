package compare

import (
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/stats"
)

// metric is one compared quantity: how to read it from a whole cell and from one
// interval, and which way is worse.
type metric struct {
	name        string
	whole       func(c *resultsdir.Cell) (float64, bool)
	piece       func(iv *resultsdir.Interval) (float64, bool)
	higherWorse bool
	rate        bool // a rate per second, else a latency in nanoseconds
	// tail marks a high percentile: one run's tail varies between runs too much for
	// any allowance, so without repeats it is shown but not gated.
	tail bool
}

// metricsFor lists what is compared between two groups of one name: the latency the
// report shows (time to acquire, or one attempt where acquire was not recorded, or
// one update for the update workload) at p50 and p99, and the throughput.
func metricsFor(old, new *stats.Group) []metric {
	latency, rate := resultsdir.MetricAcquire, "cycles/s"
	switch {
	case old.Repeats[0].IsUpdate():
		latency, rate = resultsdir.MetricUpdate, "updates/s"
	case !old.HasLatency(latency) || !new.HasLatency(latency):
		latency = resultsdir.MetricAttempt
	}
	var out []metric
	if old.HasLatency(latency) && new.HasLatency(latency) {
		out = append(out, percentile(latency, stats.P50), percentile(latency, stats.P99))
	}
	return append(out, metric{
		name:  rate,
		whole: func(c *resultsdir.Cell) (float64, bool) { return c.CyclesPerSecond, true },
		piece: func(iv *resultsdir.Interval) (float64, bool) { return iv.CyclesPerSecond, true },
		rate:  true,
	})
}

// percentile reads one percentile of one latency metric; a recording without values
// has no percentile.
func percentile(name string, p stats.Percentile) metric {
	read := func(s resultsdir.Summary) (float64, bool) { return float64(p.Of(s)), s.Count > 0 }
	return metric{
		name:        name + " " + string(p),
		whole:       func(c *resultsdir.Cell) (float64, bool) { return read(c.Latency[name]) },
		piece:       func(iv *resultsdir.Interval) (float64, bool) { return read(iv.Latency[name]) },
		higherWorse: true,
		tail:        p != stats.P50,
	}
}
