package updates

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/lockbench/lockbench/bench"
	"github.com/lockbench/lockbench/internal/sleep"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/resources/ledger"
	"github.com/lockbench/lockbench/resources/pgaccount"
)

// locked takes the lock of the row's key, writes the change in its guard mode, and
// gives the lock back: the way most code does it.
type locked struct {
	setup  Setup
	mode   pgaccount.Mode
	locker locks.Locker
	fence  fencer // nil when the mode carries no token
	res    *pgaccount.Resource
}

func newLocked(ctx context.Context, s Setup) (_ Way, err error) {
	mode, err := pgaccount.ParseMode(s.Guard)
	if err != nil {
		return nil, err
	}
	w := &locked{setup: s, mode: mode}
	defer func() {
		if err != nil {
			w.Close()
		}
	}()
	opts := s.Locker
	opts.PoolSize = s.Clients // one connection per client: fewer would measure the pool's queue, not the lock
	locker, err := locks.ForTopology(ctx, s.Strategy, s.Topology, opts)
	if err != nil {
		return nil, err
	}
	w.locker = locker // only now: a failed builder may return a typed nil
	if NeedsFence(mode) {
		f, err := newFencer(s.Strategy, s.Topology, s.Prefix, s.Clients)
		if err != nil {
			return nil, err
		}
		w.fence = f
	}
	dsn, err := withPoolSize(s.PostgresDSN, s.Clients)
	if err != nil {
		return nil, err
	}
	if w.res, err = pgaccount.Open(ctx, dsn, s.Rows, initialBalance); err != nil {
		return nil, err
	}
	return w, nil
}

func (w *locked) Name() string { return w.setup.Strategy + "+" + w.mode.String() }

func (w *locked) Update(ctx context.Context, client, account int) (bench.UpdateOutcome, error) {
	var out bench.UpdateOutcome
	key := fmt.Sprintf("%saccount:%d", w.setup.Prefix, account)
	lease, retries, err := w.acquire(ctx, key)
	out.Retries = retries
	if err != nil {
		return out, err
	}
	// Release even when ctx ended, so a run never leaves its locks behind.
	defer w.locker.Release(context.WithoutCancel(ctx), lease)
	var token int64
	if w.fence != nil {
		if token, err = w.fence.fence(ctx, lease); err != nil {
			return out, fmt.Errorf("fence: %w", err)
		}
	}
	outcome, err := w.res.Apply(ctx, w.mode, pgaccount.Change{Client: fmt.Sprint(client), Account: account,
		Token: token, Amount: 1})
	out.Refused = outcome == ledger.Refused
	return out, err
}

// acquire retries refusals with a growing, jittered pause until granted.
func (w *locked) acquire(ctx context.Context, key string) (locks.Lease, int, error) {
	delay := w.setup.RetryDelay
	for retries := 0; ; retries++ {
		lease, err := w.locker.Acquire(ctx, key, w.setup.TTL)
		if err == nil {
			return lease, retries, nil
		}
		if !errors.Is(err, locks.ErrNotAcquired) {
			return lease, retries, err
		}
		if delay > 0 {
			if err := sleep.Err(ctx, delay/2+rand.N(delay/2+1)); err != nil {
				return lease, retries, err
			}
			delay = min(2*delay, max(w.setup.MaxRetryDelay, w.setup.RetryDelay))
		}
	}
}

func (w *locked) Audit(ctx context.Context) (Audit, error) { return auditPG(ctx, w.res) }

func (w *locked) Close() error {
	var errs []error
	if w.res != nil {
		w.res.Close()
	}
	if w.fence != nil {
		errs = append(errs, w.fence.close())
	}
	if w.locker != nil {
		errs = append(errs, w.locker.Close())
	}
	return errors.Join(errs...)
}

func auditPG(ctx context.Context, res *pgaccount.Resource) (Audit, error) {
	a, err := res.Audit(ctx)
	if err != nil {
		return Audit{}, err
	}
	return Audit{Intended: a.Intended, Applied: a.Applied, Refused: a.Refused, Failed: a.Failed,
		LostUpdates: a.LostUpdates, LostAmount: a.LostAmount, Duplicates: a.Duplicates}, nil
}
