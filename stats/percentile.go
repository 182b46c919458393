package stats

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lockbench/lockbench/resultsdir"
)

// Percentile names one of the points a Summary keeps.
type Percentile string

const (
	P50  Percentile = "p50"
	P90  Percentile = "p90"
	P99  Percentile = "p99"
	P999 Percentile = "p99.9"
	Max  Percentile = "max"
)

// Percentiles lists the points a Summary keeps, in order.
var Percentiles = []Percentile{P50, P90, P99, P999, Max}

// ParsePercentile reads "p99", "p99.9", "max"...
func ParsePercentile(s string) (Percentile, error) {
	for _, p := range Percentiles {
		if strings.EqualFold(s, string(p)) {
			return p, nil
		}
	}
	return "", fmt.Errorf("unknown percentile %q (want one of p50, p90, p99, p99.9, max)", s)
}

// Quantile is the share of samples the percentile keeps at or below it (p99: 0.99);
// false for Max, which is no quantile.
func (p Percentile) Quantile() (float64, bool) {
	q, ok := map[Percentile]float64{P50: 0.5, P90: 0.9, P99: 0.99, P999: 0.999}[p]
	return q, ok
}

// Of reads this percentile from a summary.
func (p Percentile) Of(s resultsdir.Summary) time.Duration {
	switch p {
	case P50:
		return s.P50.D()
	case P90:
		return s.P90.D()
	case P99:
		return s.P99.D()
	case P999:
		return s.P999.D()
	}
	return s.Max.D()
}

// FormatDuration prints a latency with three significant digits in a unit a reader
// scans easily: 87.0µs, 1.42ms, 2.30s.
func FormatDuration(d time.Duration) string {
	v := float64(d)
	switch {
	case d == 0:
		return "0"
	case d < time.Microsecond:
		return fmt.Sprintf("%dns", d)
	case d < time.Millisecond:
		return sig3(v/1e3) + "µs"
	case d < time.Second:
		return sig3(v/1e6) + "ms"
	}
	return sig3(v/1e9) + "s"
}

// FormatRate prints a rate with at most three significant digits past the integer part.
func FormatRate(r float64) string {
	if r >= 100 {
		return strconv.FormatFloat(r, 'f', 0, 64)
	}
	return sig3(r)
}

func sig3(v float64) string {
	switch {
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}
