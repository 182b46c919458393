package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/lockbench/lockbench/contention"
)

// Updater makes one correct update of an account row, end to end, in its own way: a
// lock plus a guarded write, or a lock-free statement the data store judges. It
// retries contention itself (a lock held by another client, a version that moved),
// because the cost of one correct update includes those retries.
type Updater interface {
	// Update applies one new change for client to account.
	Update(ctx context.Context, client, account int) (UpdateOutcome, error)
}

// UpdateOutcome is what one update cost and how the store answered.
type UpdateOutcome struct {
	// Retries counts attempts that contention sent back: lock refusals, version
	// conflicts, aborted transactions.
	Retries int
	// Refused says the store refused the change (a fence it judged stale, a duplicate
	// key): not applied, and not an error.
	Refused bool
}

// UpdateLoad is who updates which row.
type UpdateLoad struct {
	Clients int
	// Rows is how many account rows the clients share: 1 is one hot row; Rows = Clients
	// gives each client its own. An open loop's accounts are drawn (Accounts) over
	// Rows rows, which may outnumber the clients.
	Rows int
	// Accounts, when set, draws each update's account by popularity over Rows rows
	// (open loop only); nil keeps client c on its own row.
	Accounts *contention.Keys
	// Seed draws the accounts, each client from a stream of its own.
	Seed uint64
	// Intervals, when set, also keeps the recording cut into consecutive pieces.
	Intervals Intervals
}

// Validate names the first field that cannot run.
func (l UpdateLoad) Validate() error {
	switch {
	case l.Clients < 1:
		return fmt.Errorf("clients = %d: must be >= 1", l.Clients)
	case l.Rows < 1 || l.Rows > l.Clients && l.Accounts == nil:
		return fmt.Errorf("rows = %d: must be between 1 and clients (%d)", l.Rows, l.Clients)
	case l.Accounts != nil && l.Accounts.N() != l.Rows:
		return fmt.Errorf("accounts drawn over %d rows, load has %d", l.Accounts.N(), l.Rows)
	}
	return nil
}

// Account is the row client updates: accounts are numbered from 1.
func (l UpdateLoad) Account(client int) int { return client%l.Rows + 1 }

// UpdateResult is a merged recording of an update run.
type UpdateResult struct {
	Update  *hdrhistogram.Histogram // one Update call that applied or was refused
	Applied int64
	Refused int64
	Retries int64
	Errors  map[string]int64
	Elapsed time.Duration
	// Intervals are the run's consecutive pieces when UpdateLoad.Intervals asked for them.
	Intervals []UpdateResult
}

// UpdatesPerSecond is the rate of applied updates.
func (r UpdateResult) UpdatesPerSecond() float64 { return perSecond(r.Applied, r.Elapsed) }

// RetriesPerUpdate is contention retries per update answered (applied or refused).
func (r UpdateResult) RetriesPerUpdate() float64 {
	if n := r.Applied + r.Refused; n > 0 {
		return float64(r.Retries) / float64(n)
	}
	return 0
}

func (r *UpdateResult) merge(o *UpdateResult) {
	r.Update.Merge(o.Update)
	r.Applied += o.Applied
	r.Refused += o.Refused
	r.Retries += o.Retries
	for k, v := range o.Errors {
		r.Errors[k] += v
	}
}

func newUpdateResult() *UpdateResult {
	return &UpdateResult{Update: NewHistogram(), Errors: map[string]int64{}}
}

// reset empties r for reuse: a client's recording after it is handed over.
func (r *UpdateResult) reset() {
	r.Update.Reset()
	r.Applied, r.Refused, r.Retries = 0, 0, 0
	clear(r.Errors)
}

// updateResult merges the intervals of an update run that lasted elapsed, keeping
// them apart too when the run was split.
func updateResult(s *split[*UpdateResult], elapsed time.Duration) UpdateResult {
	res := newUpdateResult()
	res.Elapsed = elapsed
	for _, p := range s.parts {
		res.merge(p)
	}
	if len(s.parts) > 1 {
		for i, p := range s.parts {
			p.Elapsed = s.elapsed(i, elapsed)
			res.Intervals = append(res.Intervals, *p)
		}
	}
	return *res
}

// updateTimeout bounds one update once begun: the run's end lets it finish (an update
// cut off mid-statement may land unlogged, and the audit would count it against the
// way), but a hung server must not hold the run forever.
const updateTimeout = 30 * time.Second

// RunUpdates runs a closed loop of updates: each client updates its row, then the
// next, while another() grants one and ctx lives. An update begun before ctx ended runs
// to its answer. A failed update is counted by kind and followed by a short pause, so a
// failing server is not hammered.
func RunUpdates(ctx context.Context, u Updater, load UpdateLoad, another func() bool) (UpdateResult, error) {
	if err := load.Validate(); err != nil {
		return UpdateResult{}, err
	}
	parts := newSplit(load.Intervals, newUpdateResult, (*UpdateResult).merge, (*UpdateResult).reset)
	tallies := parts.tallies(load.Clients, newUpdateResult)
	start := parts.begin()
	wait := startClients(tallies, func(client int, t *tally[*UpdateResult]) {
		uncancelled := context.WithoutCancel(ctx) // once per client, not per update
		for ctx.Err() == nil && another() {
			// The update's own deadline is made before the clock starts: its timer is
			// the harness's cost, not the update's.
			updateCtx, cancel := context.WithTimeout(uncancelled, updateTimeout)
			began := time.Now()
			t.moveTo(began)
			rec := t.rec
			out, err := u.Update(updateCtx, client, load.Account(client))
			cancel()
			rec.tally(ctx, out, err, began)
		}
	})
	wait()
	return updateResult(parts, time.Since(start)), nil
}
