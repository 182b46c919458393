package capacity

import (
	"fmt"
	"math"
	"time"

	"github.com/lockbench/lockbench/stats"
)

// Thresholds a probe must meet to count, beside the latency budget.
const (
	// MinDelivered is the share of the offered rate the generator must have completed:
	// one that fell behind did not really offer that rate.
	MinDelivered = 0.95
	// MaxFaultShare is the most errors or drops, as a share of requests, a kept rate
	// may show: a rate that fails requests fast is not a rate that keeps the budget.
	MaxFaultShare = 0.001
	// SaturatedShare is the busy share of its cores at which a process counts as
	// saturated.
	SaturatedShare = 0.9
)

// Budget is the latency a percentile of one metric must stay within.
type Budget struct {
	Metric     string // acquire or attempt
	Percentile stats.Percentile
	Limit      time.Duration
}

// Quantile is the budget's percentile as a fraction: p99 is 0.99.
func (b Budget) Quantile() (float64, error) {
	switch b.Percentile {
	case stats.P50:
		return 0.5, nil
	case stats.P90:
		return 0.9, nil
	case stats.P99:
		return 0.99, nil
	case stats.P999:
		return 0.999, nil
	}
	return 0, fmt.Errorf("percentile %q: a capacity budget needs one of p50, p90, p99, p99.9 (max has no sample count "+
		"that makes it mean something)", b.Percentile)
}

// MinSamples is how many latencies a probe must record for its percentile to mean
// something: 10/(1-q), so that ten samples lie beyond it (1,000 for p99, 10,000 for
// p99.9; a rule of 100/(1-q) would ask ten times more).
func (b Budget) MinSamples() (int64, error) {
	q, err := b.Quantile()
	if err != nil {
		return 0, err
	}
	return int64(math.Ceil(10/(1-q) - 1e-9)), nil
}

func (b Budget) String() string {
	return fmt.Sprintf("%s %s ≤ %s", b.Percentile, b.Metric, stats.FormatDuration(b.Limit))
}
