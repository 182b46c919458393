package pgaccount

// The lock-free strategies: no lock at all, the database judges each change itself.
// They write the same rows and the same log as the guard modes, and keep the same
// invariant (every write sets version to the version it built on plus one), so Audit
// judges them exactly as it judges a lock strategy.

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/lockbench/lockbench/resources/ledger"
)

// LockFree is a way of applying a change with no lock: one of LockFrees.
type LockFree string

const (
	// CASVersion: read balance and version, then UPDATE ... WHERE version = the read
	// one; 0 rows means another write came between, so read again and retry.
	CASVersion LockFree = "cas-version"
	// UniqueKey: in one transaction, record the change's IdempotencyKey in
	// applied_change (ON CONFLICT DO NOTHING) and decrement; a key already recorded is
	// a redelivery, refused.
	UniqueKey LockFree = "unique-key"
	// Atomic: one UPDATE balance = balance - $amount statement; nothing to retry.
	Atomic LockFree = "atomic"
)

// LockFrees are the lock-free methods, in a fixed order: LockFrees.Parse turns a name
// into one, and refuses an unknown name with an error naming it and the known ones.
var LockFrees = ledger.NewNames("pgaccount: unknown lock-free method", CASVersion, UniqueKey, Atomic)

// ApplyLockFree applies one intended change with method m and no lock, logs it with
// its outcome in the same log as Apply, and returns the outcome and how many times it
// retried (cas-version only). A refusal (unique-key's duplicate) is not an error.
func (r *Resource) ApplyLockFree(ctx context.Context, m LockFree, ch Change) (ledger.Outcome, int, error) {
	if err := LockFrees.Check(m); err != nil {
		return ledger.Failed, 0, err
	}
	if err := ledger.CheckAccount("pgaccount", ch.Account, r.accounts); err != nil {
		return ledger.Failed, 0, err
	}
	if m == UniqueKey && ch.IdempotencyKey == "" {
		return ledger.Failed, 0, fmt.Errorf("pgaccount: %s: change by %q has no IdempotencyKey", m, ch.Client)
	}
	id := r.log.Begin(Entry{LockFree: m, Change: ch}, stampID)
	outcome, retries, err := lockFreeFuncs[m](ctx, r.pool, ch)
	if err != nil && outcome != ledger.Failed {
		outcome = ledger.Failed
	}
	r.log.Complete(id, func(e *Entry) { e.Outcome, e.Err = outcome, err })
	return outcome, retries, err
}

// NextFence returns the next value of the account_fence sequence, in a statement of its
// own: nextval is never rolled back nor handed out twice, so it is a linearizable
// fence issuer for a strategy that writes with the Fenced guard. Open restarts it at 1.
func (r *Resource) NextFence(ctx context.Context) (int64, error) {
	var fence int64
	if err := r.pool.QueryRow(ctx, "SELECT nextval('account_fence')").Scan(&fence); err != nil {
		return 0, fmt.Errorf("pgaccount: next fence: %w", err)
	}
	return fence, nil
}

// lockFreeFunc applies one change with no lock; it returns the retries it took.
type lockFreeFunc func(ctx context.Context, db *pgxpool.Pool, ch Change) (ledger.Outcome, int, error)

var lockFreeFuncs = map[LockFree]lockFreeFunc{
	CASVersion: writeCASVersion,
	UniqueKey:  writeUniqueKey,
	Atomic:     writeAtomic,
}

func writeCASVersion(ctx context.Context, db *pgxpool.Pool, ch Change) (ledger.Outcome, int, error) {
	for retries := 0; ; retries++ {
		balance, version, _, err := readRow(ctx, db, ch.Account)
		if err != nil {
			return ledger.Failed, retries, fmt.Errorf("pgaccount: cas-version read: %w", err)
		}
		// The race hook runs once: a retry is the strategy recovering, not a new race.
		if retries == 0 {
			if err := between(ctx, ch); err != nil {
				return ledger.Failed, retries, err
			}
		}
		tag, err := db.Exec(ctx, "UPDATE account SET balance = $2, version = $3 WHERE id = $1 AND version = $4",
			ch.Account, balance-ch.Amount, version+1, version)
		if err != nil {
			return ledger.Failed, retries, fmt.Errorf("pgaccount: cas-version write: %w", err)
		}
		if tag.RowsAffected() == 1 {
			return ledger.Applied, retries, nil
		}
		if retries >= ledger.MaxRetries {
			return ledger.Failed, retries, fmt.Errorf("pgaccount: cas-version: account %d's version moved under every one of "+
				"%d retries", ch.Account, retries)
		}
		if err := ctx.Err(); err != nil {
			return ledger.Failed, retries, fmt.Errorf("pgaccount: cas-version: gave up after %d retries: %w", retries, err)
		}
	}
}

// errDuplicate rolls back a unique-key transaction whose key was already recorded.
var errDuplicate = errors.New("pgaccount: idempotency key already applied")

func writeUniqueKey(ctx context.Context, db *pgxpool.Pool, ch Change) (ledger.Outcome, int, error) {
	var inTx error // an error of the transaction's own statements, already named
	err := pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		inTx = writeUniqueKeyTx(ctx, tx, ch)
		return inTx
	})
	switch {
	case errors.Is(err, errDuplicate):
		return ledger.Refused, 0, nil
	case err != nil && err == inTx:
		return ledger.Failed, 0, err
	case err != nil:
		return ledger.Failed, 0, fmt.Errorf("pgaccount: unique-key transaction: %w", err)
	}
	return ledger.Applied, 0, nil
}

// writeUniqueKeyTx records the key and decrements, inside tx.
func writeUniqueKeyTx(ctx context.Context, tx pgx.Tx, ch Change) error {
	tag, err := tx.Exec(ctx,
		"INSERT INTO applied_change (key, account, amount) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING",
		ch.IdempotencyKey, ch.Account, ch.Amount)
	if err != nil {
		return fmt.Errorf("pgaccount: unique-key insert: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return errDuplicate
	}
	if err := between(ctx, ch); err != nil {
		return err
	}
	tag, err = tx.Exec(ctx, decrementSQL, ch.Account, ch.Amount)
	if err != nil {
		return fmt.Errorf("pgaccount: unique-key write: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return errNoRow
	}
	return nil
}

func writeAtomic(ctx context.Context, db *pgxpool.Pool, ch Change) (ledger.Outcome, int, error) {
	if err := between(ctx, ch); err != nil {
		return ledger.Failed, 0, err
	}
	out, err := writeRow(ctx, db, "atomic", decrementSQL, ch.Account, ch.Amount)
	return out, 0, err
}
