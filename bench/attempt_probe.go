package bench

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/lockbench/lockbench/internal/sleep"
	"github.com/lockbench/lockbench/locks"
)

// A probe's size: probeSize granted attempts, or fewer if probeBound runs out first, but
// never fewer than probeMin unless probeCap does (a first attempt that dials and sets up a
// library's tracking can take the whole bound on a busy machine).
const (
	probeSize  = 200
	probeBound = 2 * time.Second
	probeMin   = 20
	probeCap   = time.Minute
	// probeErrors in a row end the probe: on a loaded machine one attempt's dial or write
	// can outlast its timeout (a cell was once left with no attempt timed).
	probeErrors = 3
)

// NeedsAttemptProbe says whether a cell of load on l hides its attempts: a Waiter that
// waits its own way shows no single attempt from outside, so its one-attempt cost is
// probed apart (ProbeAttempts) to stand beside its wait.
func NeedsAttemptProbe(l locks.Locker, load Load) bool {
	_, ok := waiter(l, load)
	return ok
}

// ProbeAttempts times one-attempt grants (Acquire, then Release) of a key no client of
// load asks for, one after another, on the servers as they are before the load
// starts: up to probeSize of them within probeBound, and at least probeMin within
// probeCap. A refusal (the key left by another process) is skipped, and so is an error
// unless probeErrors come in a row, which end the probe with what it timed so far.
func ProbeAttempts(ctx context.Context, l locks.Locker, load Load) (*hdrhistogram.Histogram, error) {
	h := NewHistogram()
	// A key of this process's own: processes sharing a load probe apart.
	key := fmt.Sprintf("%sprobe:%d", load.KeyPrefix, load.FirstClient)
	ctx, cancel := context.WithTimeout(ctx, probeCap)
	defer cancel()
	soft := time.Now().Add(probeBound)
	more := func() bool {
		n := h.TotalCount()
		return n < probeMin || n < probeSize && time.Now().Before(soft)
	}
	failed := 0
	for more() && ctx.Err() == nil {
		started := time.Now()
		lease, err := l.Acquire(ctx, key, load.TTL)
		took := time.Since(started)
		switch {
		case ctx.Err() != nil:
			if err == nil {
				_ = l.Release(context.WithoutCancel(ctx), lease)
			}
			return h, nil // the bound, not the lock, cut it short
		case errors.Is(err, locks.ErrNotAcquired):
			if !sleep.For(ctx, time.Millisecond) {
				return h, nil
			}
			continue
		case err != nil:
			if failed++; failed == probeErrors {
				return h, fmt.Errorf("probe one attempt: %d errors in a row, the last: %w", failed, err)
			}
			continue
		}
		failed = 0
		record(h, took)
		if err := l.Release(context.WithoutCancel(ctx), lease); err != nil {
			return h, fmt.Errorf("probe one attempt: release: %w", err)
		}
	}
	return h, nil
}
