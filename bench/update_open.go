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
	arrival, err := NewArrival(open.Arrival, open.Rate, open.Seed)
	if err != nil {
		return UpdateResult{}, err
	}
	if open.Queue <= 0 {
		open.Queue = 1 << 16
	}
	queue := make(chan time.Time, open.Queue)
	parts := newSplit(load.Intervals, newUpdateResult, (*UpdateResult).merge, (*UpdateResult).reset)
	tallies := parts.tallies(load.Clients, newUpdateResult)
	clientCtx, stopClients := drainContext(ctx, open.Drain)
	defer stopClients()
	start := time.Now()
	measured := start.Add(open.Discard)
	parts.start = measured
	wait := startClients(tallies, func(client int, t *tally[*UpdateResult]) {
		account := load.accounts(client)
		thrown := newUpdateResult() // the discarded part's counts
		for {
			select {
			case <-clientCtx.Done():
				return
			case intended, ok := <-queue:
				if !ok {
					return
				}
				rec := thrown
				if !intended.Before(measured) {
					t.moveTo(intended)
					rec = t.rec
				}
				updateOnce(clientCtx, u, client, account(), intended, rec)
			}
		}
	})
	_, _ = dispatch(ctx, RealClock{}, arrival, start, queue)
	end := time.Now()
	close(queue) // dispatch, its only sender, has returned
	wait()
	return updateResult(parts, end.Sub(measured)), nil
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

// updateOnce makes one update of account for client, timed from began, into rec: an
// error is counted by kind, after a short pause so that a failing server is not hammered.
func updateOnce(ctx context.Context, u Updater, client, account int, began time.Time, rec *UpdateResult) {
	updateCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), updateTimeout)
	out, err := u.Update(updateCtx, client, account)
	cancel()
	rec.Retries += int64(out.Retries)
	switch {
	case err != nil:
		rec.Errors[errorKind(err)]++
		sleep.For(ctx, time.Millisecond)
		return
	case out.Refused:
		rec.Refused++
	default:
		rec.Applied++
	}
	record(rec.Update, time.Since(began))
}
