package sweep

import (
	"fmt"
	"time"
)

// DefaultIntervals is how many pieces a cell's measured part is cut into when the
// config does not say: ten samples a side give a Mann-Whitney test room to find a
// change (four is the least that can reach p < 0.05), as benchstat's -count=10 does.
const DefaultIntervals = 10

// MinInterval is the shortest piece a measured part is cut into: shorter ones hold
// too few cycles for a p99 and are within the reach of timer and scheduler jitter.
const MinInterval = 100 * time.Millisecond

// IntervalCount is how many pieces each cell's measured part is cut into: the
// configured count, or DefaultIntervals lowered to what the duration holds at
// MinInterval each. 1 means the cell is measured in one piece.
func (cfg Config) IntervalCount() int {
	if cfg.Intervals > 0 {
		return cfg.Intervals
	}
	fits := int(cfg.Duration.D() / MinInterval)
	if fits < 2 {
		return 1
	}
	return min(DefaultIntervals, fits)
}

// validateIntervals refuses a count that gives no spread to measure, or pieces too
// short to hold a percentile.
func (cfg Config) validateIntervals() error {
	k := cfg.Intervals
	switch {
	case k == 0:
		return nil
	case k < 2:
		return fmt.Errorf(
			"intervals = %d: want at least 2 (one interval has no spread to measure noise from), or leave it unset for "+
				"%d", k, DefaultIntervals)
	case cfg.Duration.D()/time.Duration(k) < MinInterval:
		return fmt.Errorf(
			"intervals = %d: a measured duration of %v holds at most %d intervals of %v; lower intervals or raise duration",
			k, cfg.Duration, int(cfg.Duration.D()/MinInterval), MinInterval)
	}
	return nil
}
