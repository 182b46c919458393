// Package pgresource registers resources/pgaccount, the account rows on PostgreSQL,
// as the resource of the safety lab's lost-updates scenario, and with it the
// pg-advisory lock (backends/postgres/pglock). It stands apart so that the lab itself carries no
// database driver: a program that runs lost-updates imports it (cmd/lockbench does).
package pgresource

import (
	"context"
	"fmt"

	_ "github.com/lockbench/lockbench/backends/postgres/pglock" // pg-advisory, and the PostgreSQL provider
	"github.com/lockbench/lockbench/resources/ledger"
	"github.com/lockbench/lockbench/resources/pgaccount"
	"github.com/lockbench/lockbench/safety/scenarios/lostupdates"
)

// InitialBalance is the one account's balance at the start of every trial.
const InitialBalance = 1_000_000

func init() {
	modes := pgaccount.ModeNames()
	for _, m := range pgaccount.LockFrees() {
		modes = append(modes, string(m))
	}
	lostupdates.RegisterAccounts(Open, modes)
}

// Open opens the account resource on dsn with its tables reset: one account row.
func Open(ctx context.Context, dsn string) (lostupdates.Accounts, error) {
	r, err := pgaccount.Open(ctx, dsn, 1, InitialBalance)
	if err != nil {
		return nil, err
	}
	return accounts{r}, nil
}

// accounts is a pgaccount.Resource seen by the lab.
type accounts struct{ r *pgaccount.Resource }

func (a accounts) Apply(ctx context.Context, mode string,
	ch lostupdates.AccountChange) (lostupdates.AccountOutcome, error) {
	change := pgaccount.Change{Client: ch.Client, Account: 1, Token: ch.Token, Amount: ch.Amount, Between: ch.Between,
		IdempotencyKey: ch.Key}
	var out ledger.Outcome
	if lf, err := pgaccount.ParseLockFree(mode); err == nil {
		out, _, err = a.r.ApplyLockFree(ctx, lf, change)
		return outcome(out, err)
	}
	m, err := pgaccount.ParseMode(mode)
	if err != nil {
		return lostupdates.AccountFailed, err
	}
	out, err = a.r.Apply(ctx, m, change)
	return outcome(out, err)
}

// outcome is pgaccount's answer in the lab's words.
func outcome(out ledger.Outcome, err error) (lostupdates.AccountOutcome, error) {
	switch out {
	case ledger.Applied:
		return lostupdates.AccountApplied, err
	case ledger.Refused:
		return lostupdates.AccountRefused, err
	}
	if err == nil {
		err = fmt.Errorf("pgaccount: outcome %s without an error", out)
	}
	return lostupdates.AccountFailed, err
}

func (a accounts) NextFence(ctx context.Context) (int64, error) { return a.r.NextFence(ctx) }

func (a accounts) Audit(ctx context.Context) (lostupdates.AccountAudit, error) {
	au, err := a.r.Audit(ctx)
	if err != nil {
		return lostupdates.AccountAudit{}, err
	}
	if len(au.Accounts) != 1 {
		return lostupdates.AccountAudit{}, fmt.Errorf("pgaccount: audit of %d accounts, want 1", len(au.Accounts))
	}
	row := au.Accounts[0]
	return lostupdates.AccountAudit{
		Applied: au.Applied, Refused: au.Refused, Failed: au.Failed,
		LostUpdates: int(au.LostUpdates), LostAmount: au.LostAmount,
		Balance: au.Balance, Expected: au.Expected, Version: row.Version, Fence: row.Fence,
		SideEffects: au.SideEffects, EscapedSideEffects: au.UnappliedSideEffects, Duplicates: au.Duplicates,
	}, nil
}

func (a accounts) Close() { a.r.Close() }
