package zklock

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/lockbench/lockbench/locks"
)

// Warm opens, in parallel, the sessions w.Clients clients will use for w.TTL (no more
// than the pool keeps idle), so that no attempt in the measurement opens one.
func (l *Locker) Warm(ctx context.Context, w locks.WarmUp) error {
	if w.TTL <= 0 {
		return nil
	}
	requested := requestedTimeout(w.TTL)
	l.mu.Lock()
	n := min(w.Clients, l.opts.PoolSize) - len(l.idle[requested])
	l.mu.Unlock()
	if n <= 0 {
		return nil
	}
	// Not measured: hundreds of sessions at once may wait on a loaded server's log as
	// long as the caller's deadline allows, not one request's bound.
	wait := l.opts.Timeout
	if d, ok := ctx.Deadline(); ok {
		wait = max(wait, time.Until(d))
	}
	sessions := make([]*session, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sessions[i], errs[i] = openSession(ctx, l.servers, requested, wait, l.opts.Dialer)
		}()
	}
	wg.Wait()
	for _, s := range sessions {
		switch {
		case s == nil:
		case s.timeout > requested:
			// Too short for the server: Acquire refuses such a ttl, naming the minimum.
			l.minGranted.Store(int64(s.timeout))
			l.discard(s)
		default:
			l.putIdle(s)
		}
	}
	return errors.Join(errs...)
}
