package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/stats"
)

// SLO is a latency budget: a percentile of a metric that must stay at or under Budget.
type SLO struct {
	Metric     string // acquire (default) or attempt
	Percentile stats.Percentile
	Budget     time.Duration
}

// ParseSLO reads "p99=5ms", or "attempt:p99.9=2ms" to budget one attempt instead of the
// time to acquire.
func ParseSLO(s string) (SLO, error) {
	slo := SLO{Metric: resultsdir.MetricAcquire}
	rest := s
	if m, r, ok := strings.Cut(s, ":"); ok {
		if m != resultsdir.MetricAcquire && m != resultsdir.MetricAttempt {
			return SLO{}, fmt.Errorf("--slo %q: metric %q is not acquire or attempt", s, m)
		}
		slo.Metric, rest = m, r
	}
	p, b, ok := strings.Cut(rest, "=")
	if !ok {
		return SLO{}, fmt.Errorf("--slo %q: want PERCENTILE=BUDGET, e.g. p99=5ms", s)
	}
	pc, err := stats.ParsePercentile(p)
	if err != nil {
		return SLO{}, fmt.Errorf("--slo %q: %w", s, err)
	}
	d, err := time.ParseDuration(b)
	if err != nil || d <= 0 {
		return SLO{}, fmt.Errorf("--slo %q: budget %q is not a positive duration like 5ms", s, b)
	}
	slo.Percentile, slo.Budget = pc, d
	return slo, nil
}

func (s SLO) String() string {
	return fmt.Sprintf("%s %s ≤ %s", s.Percentile, s.Metric, stats.FormatDuration(s.Budget))
}
