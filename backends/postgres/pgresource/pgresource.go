// Package pgresource is resources/pgaccount, the account rows on PostgreSQL, seen as
// the resource of the safety lab's lost-updates scenario (pgstore registers it). It
// stands apart so that the lab itself carries no database driver.
package pgresource

import (
	"context"
	"fmt"

	"github.com/lockbench/lockbench/resources/ledger"
	"github.com/lockbench/lockbench/resources/pgaccount"
	"github.com/lockbench/lockbench/safety/scenarios/lostupdates/accounts"
)

// InitialBalance is the one account's balance at the start of every trial.
const InitialBalance = 1_000_000

// Modes are every way of applying an update the account rows know: under a lock, or
// judged by the rows themselves.
func Modes() []string {
	modes := pgaccount.ModeNames()
	for _, m := range pgaccount.LockFrees.All() {
		modes = append(modes, string(m))
	}
	return modes
}

// Open opens the account resource on dsn with its tables reset: one account row.
func Open(ctx context.Context, dsn string) (accounts.Resource, error) {
	r, err := pgaccount.Open(ctx, dsn, 1, InitialBalance)
	if err != nil {
		return nil, err
	}
	return rows{r}, nil
}

// rows is a pgaccount.Resource seen by the lab.
type rows struct{ r *pgaccount.Resource }

func (a rows) Apply(ctx context.Context, mode string,
	ch accounts.Change) (accounts.Outcome, error) {
	change := pgaccount.Change{Client: ch.Client, Account: 1, Token: ch.Token, Amount: ch.Amount, Between: ch.Between,
		IdempotencyKey: ch.Key}
	var out ledger.Outcome
	if lf, err := pgaccount.LockFrees.Parse(mode); err == nil {
		out, _, err = a.r.ApplyLockFree(ctx, lf, change)
		return outcome(out, err)
	}
	m, err := pgaccount.ParseMode(mode)
	if err != nil {
		return accounts.Failed, err
	}
	out, err = a.r.Apply(ctx, m, change)
	return outcome(out, err)
}

// outcome is pgaccount's answer in the lab's words.
func outcome(out ledger.Outcome, err error) (accounts.Outcome, error) {
	switch out {
	case ledger.Applied:
		return accounts.Applied, err
	case ledger.Refused:
		return accounts.Refused, err
	}
	if err == nil {
		err = fmt.Errorf("pgaccount: outcome %s without an error", out)
	}
	return accounts.Failed, err
}

func (a rows) NextFence(ctx context.Context) (int64, error) { return a.r.NextFence(ctx) }

func (a rows) Audit(ctx context.Context) (accounts.Audit, error) {
	au, err := a.r.Audit(ctx)
	if err != nil {
		return accounts.Audit{}, err
	}
	if len(au.Accounts) != 1 {
		return accounts.Audit{}, fmt.Errorf("pgaccount: audit of %d accounts, want 1", len(au.Accounts))
	}
	row := au.Accounts[0]
	return accounts.Audit{
		Applied: au.Applied, Refused: au.Refused, Failed: au.Failed,
		LostUpdates: int(au.LostUpdates), LostAmount: au.LostAmount,
		Balance: au.Balance, Expected: au.Expected, Version: row.Version, Fence: row.Fence,
		SideEffects: au.SideEffects, EscapedSideEffects: au.UnappliedSideEffects, Duplicates: au.Duplicates,
	}, nil
}

func (a rows) Close() { a.r.Close() }
