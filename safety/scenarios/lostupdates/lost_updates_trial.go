package lostupdates

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/history"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/safety/scenarios/lostupdates/accounts"
	"github.com/lockbench/lockbench/topologies"
)

// registeredAccounts is the account resource a store registered, refused unless it
// knows every mode lost-updates writes with.
func registeredAccounts() (accounts.Open, error) {
	open, modes, err := accounts.Registered()
	if err != nil {
		return nil, err
	}
	for _, m := range append(AccountModes(), lockFreeModes...) {
		if !slices.Contains(modes, m) {
			return nil, fmt.Errorf("lost-updates: the account resource has no mode %s (it has %v)", m, modes)
		}
	}
	return open, nil
}

// lostUpdatesConfig is the run's params and its PostgreSQL server.
type lostUpdatesConfig struct {
	ttl         time.Duration
	pauseFactor float64
	pg          topologies.Topology
	dsn         string
	open        accounts.Open
}

// The amounts of the three changes, apart so that a lost one shows in the balance.
const (
	firstAmount  = 1
	staleAmount  = 10
	honestAmount = 100
)

// accountResource is the name of the row in the history.
const accountResource = "account"

// lostUpdatesTrial: A makes change #1 under lease L0 (a fence in the row, as a
// long-running system has), then change #2 under LA; just before #2's write the lock
// is broken and B, granted, makes change #3; then A's write goes through its guard.
// The audit of the row gives the counts; the history gives the overlap.
func lostUpdatesTrial(ctx context.Context, rig breakRig, cfg lostUpdatesConfig, v lostUpdatesVariant,
	t *lab.Trial) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	return rig.trial(ctx, t, func(lk *brokenLock) error { return lostUpdatesOn(ctx, lk, cfg, v, t) })
}

func lostUpdatesOn(ctx context.Context, lk *brokenLock, cfg lostUpdatesConfig, v lostUpdatesVariant,
	t *lab.Trial) error {
	acct, err := cfg.open(ctx, cfg.dsn)
	if err != nil {
		return lab.Failed("setup", fmt.Errorf("accounts: %w", err))
	}
	defer acct.Close()
	fenced := v.fence == fenceOfLock && v.hasFence()
	clients, closeClients, err := lab.StoreClients(ctx, lk.store, lk.topo, fenced, t.Rec, "A", "B")
	if err != nil {
		return err
	}
	defer closeClients()
	a, b := clients[0], clients[1]
	w := &accountWriter{t: t, acct: acct, res: lab.NewResource(accountResource, false, t.Rec), mode: v.guard.String(),
		v: v}

	if err := lk.lag(ctx); err != nil {
		return lab.Failed("nemesis", err)
	}
	// 1. A's first change, whole: the row now holds A's first fence.
	lease0, err := a.Acquire(ctx, t.Key, lk.ttl)
	if err != nil {
		return lab.FirstGrant(err)
	}
	f0, err := w.fence(ctx, lease0)
	if err != nil {
		return err
	}
	out, err := w.change(ctx, a, lease0, f0, firstAmount, nil)
	if err != nil {
		return err
	}
	if out != accounts.Applied {
		return lab.Failed("setup", fmt.Errorf("A's first change, alone on the row, was %s", out))
	}
	if err := a.Release(ctx, lease0); err != nil {
		return lab.Failed("release", fmt.Errorf("A's first lease: %w", err))
	}

	// 2. A's second change, broken into by B's.
	if err := lk.hold(ctx); err != nil {
		return lab.Failed("nemesis", err)
	}
	leaseA, err := a.Acquire(ctx, t.Key, lk.ttl)
	if err != nil {
		return lab.FirstGrant(err)
	}
	t.Input("lease_ms", lab.Millis(leaseA.ValidUntil.Sub(leaseA.Start)))
	fA, err := w.fence(ctx, leaseA)
	if err != nil {
		return err
	}
	var hookErr error
	var leaseB locks.Lease
	bOut, hooked := accounts.Failed, false
	between := func(ctx context.Context) error {
		hooked = true
		leaseB, bOut, hookErr = breakAndOvertake(ctx, lk, w, a, b, leaseA)
		return hookErr
	}
	aOut, aErr := w.change(ctx, a, leaseA, fA, staleAmount, between)
	if leaseB.Token != "" {
		lab.ReleaseSoon(ctx, b, leaseB)
	}
	lab.ReleaseSoon(ctx, a, leaseA) // refused, mostly: the lock is B's, or gone
	switch {
	case hookErr != nil:
		return hookErr
	case aErr != nil:
		return aErr
	case !hooked:
		return lab.Failed("trial", fmt.Errorf("A's change was %s before its write: the lock was never broken", aOut))
	}

	// 3. The judgement, from the audit of the row.
	audit, err := acct.Audit(ctx)
	if err != nil {
		return lab.Failed("audit", err)
	}
	if audit.Failed > 0 {
		return lab.Failed("resource", fmt.Errorf("%d changes failed: the audit cannot be exact", audit.Failed))
	}
	t.Input("fence_row", float64(audit.Fence))
	t.Input("balance", float64(audit.Balance))
	t.Input("expected_balance", float64(audit.Expected))
	t.Input("lost_amount", float64(audit.LostAmount))
	lost := audit.LostUpdates
	if bOut == accounts.Refused {
		lost++ // the current holder's change, refused: lost as surely
	}
	t.Count(results.LostUpdates, lost)
	t.Count(results.StaleApplied, boolCount(aOut == accounts.Applied))
	t.Count(results.StaleRefused, boolCount(aOut == accounts.Refused))
	t.Count(results.HonestRejected, boolCount(bOut == accounts.Refused))
	t.Count(results.EscapedSideEffects, audit.EscapedSideEffects)
	t.Prove("audit: A's stale change %s, B's %s; row balance %d (expected %d), version %d of %d applied, fence %d; %d "+
		"of %d side effects escaped",
		aOut, bOut, audit.Balance, audit.Expected, audit.Version, audit.Applied, audit.Fence, audit.EscapedSideEffects,
		audit.SideEffects)
	return nil
}

// breakAndOvertake runs in A's change just before its write: it breaks the lock, has
// B take it (retrying, bounded by the break) and make its change whole, and returns
// once A may go on (a paused A only when its pause ends). It proves the break: B
// granted while A had not released, with the break's own evidence.
func breakAndOvertake(ctx context.Context, lk *brokenLock, w *accountWriter, a, b *lab.Client,
	leaseA locks.Lease) (locks.Lease, accounts.Outcome, error) {
	t := w.t
	deadline, err := lk.breakLock(ctx, a, leaseA)
	if err != nil {
		return locks.Lease{}, accounts.Failed, err
	}
	leaseB, err := lab.AcquireThroughFaults(ctx, b, t.Key, lk.ttlB, time.Until(deadline))
	if err != nil {
		if ctx.Err() != nil {
			return leaseB, accounts.Failed, ctx.Err()
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return leaseB, accounts.Failed,
				lab.NoFault("B was not granted by %s (%v after A's grant): %v", lk.until,
					deadline.Sub(leaseA.Start).Round(time.Millisecond), err)
		}
		return leaseB, accounts.Failed, lab.Failed("second-acquire", err)
	}
	grantedAt := time.Now()
	if err := lk.proveGrant(leaseA, grantedAt); err != nil {
		return leaseB, accounts.Failed, err
	}
	t.Prove("B was granted %v after A's grant of the lease A had not released (A's lease ran to %v after its grant)",
		grantedAt.Sub(leaseA.Start).Round(time.Millisecond), leaseA.ValidUntil.Sub(leaseA.Start).Round(time.Millisecond))
	fB, err := w.fence(ctx, leaseB)
	if err != nil {
		return leaseB, accounts.Failed, err
	}
	out, err := w.change(ctx, b, leaseB, fB, honestAmount, nil)
	if err != nil {
		return leaseB, out, err
	}
	// A stopped goes on only when its stop ends.
	if err := a.Checkpoint(ctx); err != nil {
		return leaseB, out, err
	}
	return leaseB, out, lk.proveResumed(leaseA)
}

// accountWriter makes the trial's changes and records each in the history as the
// resource's answer: entered, written (accepted as the database said), left.
type accountWriter struct {
	t    *lab.Trial
	acct accounts.Resource
	res  *lab.Resource
	mode string
	v    lostUpdatesVariant
}

// fence is the token a holder writes with: its lease's own or the sequence's next,
// taken right after the grant; 0 where the variant has none.
func (w *accountWriter) fence(ctx context.Context, lease locks.Lease) (int64, error) {
	switch {
	case w.v.fence == fencePGSeq:
		f, err := w.acct.NextFence(ctx)
		if err != nil {
			return 0, lab.Failed("fence", err)
		}
		return f, nil
	case !w.v.hasFence():
		return 0, nil
	case !lease.HasFence:
		return 0, lab.Failed("fence", fmt.Errorf("%s granted a lease without its fence", w.v.strategy))
	}
	return lease.Fence, nil
}

// change is one client's change under lease, whole: a failed one is the trial's error.
func (w *accountWriter) change(ctx context.Context, c *lab.Client, lease locks.Lease, fence, amount int64,
	between func(context.Context) error) (accounts.Outcome, error) {
	if err := c.Enter(ctx, w.res, lease); err != nil {
		return accounts.Failed, err
	}
	out, err := w.acct.Apply(ctx, w.mode, accounts.Change{Client: c.ID, Token: fence, Amount: amount, Between: between})
	if err != nil || out == accounts.Failed {
		c.Leave(w.res, lease)
		if err == nil {
			err = errors.New("failed without an error")
		}
		return out, lab.Failed("resource", fmt.Errorf("%s's change of %d: %w", c.ID, amount, err))
	}
	w.t.Rec.Record(history.Event{Client: c.ID, Kind: history.Write, Key: lease.Key, Token: lease.Token,
		Resource: w.res.Name(),
		Fence:    fence, HasFence: w.v.hasFence(), Accepted: out == accounts.Applied})
	c.Leave(w.res, lease)
	return out, nil
}

func boolCount(b bool) int {
	if b {
		return 1
	}
	return 0
}
