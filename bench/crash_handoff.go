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

// Holder is a locker whose Kill ends it as its process's death would: its connections
// close, and it never releases, extends or reconnects again.
type Holder struct {
	Locker locks.Locker
	Kill   func()
}

// waiterHeadStart is how long the waiter waits before the holder dies, so that it is
// waiting (polling, queued or watching) when the key is freed, as a team's would be.
const waiterHeadStart = 100 * time.Millisecond

// ProbeCrashHandoffs times how long a key stays blocked after its holder dies holding
// it: each trial a new holder takes a key, a client of l starts waiting for it the way
// the load waits, the holder is killed, and the time from the kill to that client's
// grant is recorded. A wait longer than bound ends the probe with an error naming it.
func ProbeCrashHandoffs(ctx context.Context, l locks.Locker, load Load, newHolder func(context.Context) (Holder, error),
	trials int, bound time.Duration) (*hdrhistogram.Histogram, error) {
	h := NewHistogram()
	for i := range trials {
		d, err := crashHandoff(ctx, l, load, newHolder, fmt.Sprintf("%scrash:%d:%d", load.KeyPrefix, load.FirstClient, i),
			bound)
		if err != nil {
			return h, fmt.Errorf("crash hand-off %d of %d: %w", i+1, trials, err)
		}
		record(h, d)
	}
	return h, nil
}

// crashHandoff is one trial on key.
func crashHandoff(ctx context.Context, l locks.Locker, load Load, newHolder func(context.Context) (Holder, error),
	key string, bound time.Duration) (time.Duration, error) {
	holder, err := newHolder(ctx)
	if err != nil {
		return 0, fmt.Errorf("start the holder: %w", err)
	}
	defer holder.Kill()
	defer func() { go holder.Locker.Close() }() // a dead client's close may wait on servers it cannot reach
	if _, err := acquireOnce(ctx, holder.Locker, key, load.TTL); err != nil {
		return 0, fmt.Errorf("the holder's grant: %w", err)
	}
	waitCtx, cancel := context.WithTimeout(ctx, bound+waiterHeadStart)
	defer cancel()
	type grant struct {
		at    time.Time
		lease locks.Lease
		ok    bool
	}
	granted := make(chan grant, 1)
	go func() {
		rec := NewRecorder() // the waiter's own costs are the load's to time, not the probe's
		var lease locks.Lease
		var ok bool
		if w, natural := waiter(l, load); natural {
			lease, ok = waitNaturally(waitCtx, w, load, key, rec)
		} else {
			lease, ok = attempt(waitCtx, l, load, key, rec)
		}
		granted <- grant{time.Now(), lease, ok}
	}()
	if !sleep.For(ctx, waiterHeadStart) {
		return 0, ctx.Err()
	}
	killed := time.Now()
	holder.Kill()
	g := <-granted
	if !g.ok {
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		return 0, fmt.Errorf("no grant within %v of the holder's death", bound)
	}
	if err := l.Release(context.WithoutCancel(ctx), g.lease); err != nil && !errors.Is(err, locks.ErrNotHeld) {
		return 0, fmt.Errorf("release after the hand-off: %w", err)
	}
	if g.at.Before(killed) {
		return 0, fmt.Errorf("granted %v before the holder died, while it held the key", killed.Sub(g.at))
	}
	return g.at.Sub(killed), nil
}

// acquireOnce takes key for a holder that must get it: a refusal means another process
// holds the key, which no probe key should.
func acquireOnce(ctx context.Context, l locks.Locker, key string, ttl time.Duration) (locks.Lease, error) {
	lease, err := l.Acquire(ctx, key, ttl)
	if errors.Is(err, locks.ErrNotAcquired) {
		return lease, fmt.Errorf("key %s is held by someone else", key)
	}
	return lease, err
}
