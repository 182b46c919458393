package lab

import (
	"context"
	"time"

	"github.com/lockbench/lockbench/internal/sleep"
)

// Sleep waits d, or returns ctx's error when it ends first.
func Sleep(ctx context.Context, d time.Duration) error {
	return sleep.Err(ctx, d)
}

// Millis is d in milliseconds, as the results record durations.
func Millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// BoolFloat is 1 for true, 0 for false: a yes-or-no input recorded as a number.
func BoolFloat(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
