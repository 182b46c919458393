// Package sleep waits for a duration unless a context ends first.
package sleep

import (
	"context"
	"time"
)

// Err waits d, or returns ctx's error when it ends first.
func Err(ctx context.Context, d time.Duration) error {
	if !For(ctx, d) {
		return ctx.Err()
	}
	return nil
}

// For waits d or until ctx ends; it reports whether the whole d passed.
func For(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
