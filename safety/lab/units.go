package lab

import (
	"context"
	"time"
)

// Sleep waits d or until ctx ends.
func Sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
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
