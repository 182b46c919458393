// Package sleep waits for a duration unless a context ends first.
package sleep

import (
	"context"
	"time"
)

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
