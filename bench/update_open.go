package bench

import (
	"context"
	"time"

	"github.com/lockbench/lockbench/contention"
	"github.com/lockbench/lockbench/internal/sleep"
)

// RunUpdatesOpen runs an open loop of updates: requests arrive on open's schedule,
// each for an account drawn by load.Accounts (client c's own row without it), and
// clients serve them; an update is timed from its intended start, so waiting for a free
// client or a busy row shows. Requests due in open.Discard are served unrecorded, and
// those due before ctx's deadline are served to their answer within open.Drain.
func RunUpdatesOpen(ctx context.Context, u Updater, load UpdateLoad, open Open) (UpdateResult, error) {
	if err := load.Validate(); err != nil {
		return UpdateResult{}, err
	}
	arrival, err := open.arrival()
	if err != nil {
		return UpdateResult{}, err
	}
	parts := newSplit(load.Intervals, newUpdateResult, (*UpdateResult).merge, (*UpdateResult).reset)
	tallies := parts.tallies(load.Clients, newUpdateResult)
	discarded := make([]*UpdateResult, load.Clients) // made on a client's first discarded request
	run := serveOpen(ctx, RealClock{}, arrival, open, parts, tallies,
		func(c int) func(context.Context, time.Time, *UpdateResult) {
			account := load.accounts(c)
			return func(ctx context.Context, intended time.Time, rec *UpdateResult) {
				updateCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), updateTimeout)
				out, err := u.Update(updateCtx, c, account())
				cancel()
				rec.tally(ctx, out, err, intended)
			}
		},
		func(c int) *UpdateResult {
			if discarded[c] == nil {
				discarded[c] = newUpdateResult()
			}
			return discarded[c]
		})
	if err := run.measuredSomething(); err != nil {
		return UpdateResult{}, err
	}
	return updateResult(parts, run.measured), nil
}

// accounts is client's source of accounts: its own row, or draws by popularity.
func (l UpdateLoad) accounts(client int) func() int {
	if l.Accounts == nil {
		own := l.Account(client)
		return func() int { return own }
	}
	// A multiplier spreads neighbouring clients' seeds across the 64 bits PCG reads.
	r := contention.NewRand(l.Seed+uint64(client)*0x9e3779b97f4a7c15, keyStream)
	return func() int { return l.Accounts.Sample(r) + 1 }
}

// tally counts one update's answer, timed from began: an error by its kind, after a
// short pause so that a failing server is not hammered.
func (r *UpdateResult) tally(ctx context.Context, out UpdateOutcome, err error, began time.Time) {
	r.Retries += int64(out.Retries)
	switch {
	case err != nil:
		r.Errors[errorKind(err)]++
		sleep.For(ctx, time.Millisecond)
		return
	case out.Refused:
		r.Refused++
	default:
		r.Applied++
	}
	record(r.Update, time.Since(began))
}
