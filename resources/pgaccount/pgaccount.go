// Package pgaccount is the protected resource on PostgreSQL: an account row with
// balance, version and fence columns, and the guard modes that write it.
//
// A Resource keeps the ground truth client-side: every intended change is logged (in
// memory, under a mutex) with its client, token and amount, and with what the database
// said about it (applied, refused, or an error that leaves it unknown). Audit compares
// that log with the rows, so lost updates are exact, per trial:
//
//   - by amount: initial - sum(applied amounts) against the balance in the row;
//   - by count: every write sets version to the version of the row state it built on
//     plus one, and balance to that state's balance minus its amount, so a row always
//     holds initial minus exactly `version` applied changes, and applied - version is
//     the number of applied changes the balance lost.
//
// The package never imports the lock strategies or the safety lab: a caller takes its
// lock, then applies its change through a Mode; the database judges.
package pgaccount

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/lockbench/lockbench/resources/ledger"
)

// Guard is how a change is written to the account row: a closed set.
type Guard string

const (
	// Unfenced: UPDATE account SET balance = balance - $amount WHERE id = $id. One
	// atomic statement: it loses nothing by itself, and guards nothing.
	Unfenced Guard = "unfenced"
	// Fenced: the same statement with AND fence < $token, setting fence = $token.
	// 0 rows means a stale holder, refused by the database.
	Fenced Guard = "fenced"
	// CheckThenWrite: SELECT the row, compare the fence in the client, then write the
	// computed balance and the token in a second statement: the race one layer down.
	CheckThenWrite Guard = "check-then-write"
	// ReadModifyWrite: SELECT the balance, compute, UPDATE balance = $computed: only the
	// lock protects it.
	ReadModifyWrite Guard = "read-modify-write"
)

// Guards lists every guard, in a fixed order.
func Guards() []Guard { return []Guard{Unfenced, Fenced, CheckThenWrite, ReadModifyWrite} }

// outboxSuffix marks a mode that sends a side effect before its guarded write.
const outboxSuffix = "+outbox"

// Mode is a guard, optionally with a side effect beyond the guarded row: with Outbox,
// every attempted write first appends to the outbox table in a transaction of its own
// (as code that sends an email and then writes would), so side effects sent by holders
// the fence refused stay sent.
type Mode struct {
	Guard  Guard
	Outbox bool
}

// String is the mode's name: the guard, with "+outbox" when it has a side effect.
func (m Mode) String() string {
	if m.Outbox {
		return string(m.Guard) + outboxSuffix
	}
	return string(m.Guard)
}

// Modes lists every mode: each guard without and with the outbox.
func Modes() []Mode {
	var out []Mode
	for _, g := range Guards() {
		out = append(out, Mode{Guard: g})
	}
	for _, g := range Guards() {
		out = append(out, Mode{Guard: g, Outbox: true})
	}
	return out
}

// ModeNames lists the names ParseMode accepts.
func ModeNames() []string {
	var out []string
	for _, m := range Modes() {
		out = append(out, m.String())
	}
	return out
}

// ParseMode turns a name ("fenced", "read-modify-write+outbox", ...) into a Mode; an
// unknown name is an error that names it.
func ParseMode(name string) (Mode, error) {
	for _, m := range Modes() {
		if m.String() == name {
			return m, nil
		}
	}
	return Mode{}, fmt.Errorf("pgaccount: unknown guard mode %q (known: %s)", name, strings.Join(ModeNames(), ", "))
}

func (m Mode) valid() error {
	if _, ok := guardFuncs[m.Guard]; !ok {
		return fmt.Errorf("pgaccount: unknown guard mode %q (known: %s)", m.String(), strings.Join(ModeNames(), ", "))
	}
	return nil
}

// Change is one intended change: client takes Amount from Account, holding Token (the
// fence of its lock; modes without a fence carry it for the log only).
type Change struct {
	Client  string
	Account int
	Token   int64
	Amount  int64
	// Between, if set, runs just before the guarded write statement: after the read in
	// check-then-write and read-modify-write, after the side effect in outbox modes. A
	// caller pauses its client there to make a race reproducible. An error abandons the
	// change (Failed, nothing written).
	Between func(ctx context.Context) error
	// IdempotencyKey names the change across redeliveries: the unique-key lock-free
	// method requires it; the others carry it for the log, so Audit sees duplicates.
	IdempotencyKey string
}

// Entry is one logged change and its outcome.
type Entry struct {
	ID      int64
	Mode    Mode
	Change  Change
	Outcome ledger.Outcome
	Err     error
	// SideEffect says an outbox row was written for this change.
	SideEffect bool
	// LockFree is the method of a change applied with no lock (ApplyLockFree); Mode is
	// zero then.
	LockFree LockFree
}

// Resource is a database holding the account rows, and the client-side log of every
// change intended on them.
type Resource struct {
	pool     *pgxpool.Pool
	accounts int
	initial  int64

	log ledger.Log[Entry]
}

// schemaLockKey serializes schema creation among resources on one database (the two-int
// advisory key space, apart from pglock's).
const schemaLockKey = 2

// Open connects to dsn, creates the schema if missing and resets it: accounts rows with
// ids 1..accounts, each holding initialBalance at version 0 and fence 0, and an empty
// outbox. The tables belong to one Resource at a time: a second Open on the same
// database resets them under the first.
func Open(ctx context.Context, dsn string, accounts int, initialBalance int64) (*Resource, error) {
	if accounts < 1 {
		return nil, fmt.Errorf("pgaccount: accounts = %d: must be >= 1", accounts)
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("pgaccount: dsn: %w", err)
	}
	cfg.ConnConfig.RuntimeParams["application_name"] = "lockbench pgaccount"
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("pgaccount: %w", err)
	}
	r := &Resource{pool: pool, accounts: accounts, initial: initialBalance}
	if err := r.reset(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("pgaccount: schema: %w", err)
	}
	return r, nil
}

func (r *Resource) reset(ctx context.Context) error {
	return pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		for _, stmt := range []string{
			fmt.Sprintf("SELECT pg_advisory_xact_lock(1819239275, %d)", schemaLockKey),
			`CREATE TABLE IF NOT EXISTS account (
				id      integer PRIMARY KEY,
				balance bigint  NOT NULL,
				version bigint  NOT NULL DEFAULT 0,
				fence   bigint  NOT NULL DEFAULT 0)`,
			`CREATE TABLE IF NOT EXISTS outbox (
				seq       bigserial   PRIMARY KEY,
				change_id bigint      NOT NULL,
				client    text        NOT NULL,
				account   integer     NOT NULL,
				token     bigint      NOT NULL,
				amount    bigint      NOT NULL,
				mode      text        NOT NULL,
				sent_at   timestamptz NOT NULL DEFAULT now())`,
			`CREATE TABLE IF NOT EXISTS applied_change (
				key     text    PRIMARY KEY,
				account integer NOT NULL,
				amount  bigint  NOT NULL)`,
			"CREATE SEQUENCE IF NOT EXISTS account_fence",
			"TRUNCATE account, outbox, applied_change RESTART IDENTITY",
			"ALTER SEQUENCE account_fence RESTART",
		} {
			if _, err := tx.Exec(ctx, stmt); err != nil {
				return err
			}
		}
		_, err := tx.Exec(ctx,
			"INSERT INTO account (id, balance, version, fence) SELECT g, $2, 0, 0 FROM generate_series(1, $1::integer) g",
			r.accounts, r.initial)
		return err
	})
}

// Close closes the resource's connections; the rows stay.
func (r *Resource) Close() { r.pool.Close() }

// Accounts and InitialBalance are what Open set.
func (r *Resource) Accounts() int         { return r.accounts }
func (r *Resource) InitialBalance() int64 { return r.initial }

// Apply applies one intended change in mode, logs it with its outcome, and returns the
// outcome. A refusal (the guard refused a stale token, by 0 rows or the client's check) is not an error.
func (r *Resource) Apply(ctx context.Context, mode Mode, ch Change) (ledger.Outcome, error) {
	if err := mode.valid(); err != nil {
		return ledger.Failed, err
	}
	if err := ledger.CheckAccount("pgaccount", ch.Account, r.accounts); err != nil {
		return ledger.Failed, err
	}
	id := r.log.Begin(Entry{Mode: mode, Change: ch}, stampID)

	sideEffect := false
	outcome, err := func() (ledger.Outcome, error) {
		if mode.Outbox {
			if _, err := r.pool.Exec(ctx,
				"INSERT INTO outbox (change_id, client, account, token, amount, mode) VALUES ($1, $2, $3, $4, $5, $6)",
				id, ch.Client, ch.Account, ch.Token, ch.Amount, mode.String()); err != nil {
				return ledger.Failed, fmt.Errorf("pgaccount: outbox: %w", err)
			}
			sideEffect = true
		}
		return guardFuncs[mode.Guard](ctx, r.pool, ch)
	}()
	if err != nil && outcome != ledger.Failed {
		outcome = ledger.Failed
	}

	r.log.Complete(id, func(e *Entry) { e.Outcome, e.Err, e.SideEffect = outcome, err, sideEffect })
	return outcome, err
}

// Log returns a copy of the client-side log, in the order changes were begun.
func (r *Resource) Log() []Entry { return r.log.Entries() }

func stampID(e *Entry, id int64) { e.ID = id }

// guardFunc applies one change under one guard.
type guardFunc func(ctx context.Context, db *pgxpool.Pool, ch Change) (ledger.Outcome, error)

var guardFuncs = map[Guard]guardFunc{
	Unfenced:        writeUnfenced,
	Fenced:          writeFenced,
	CheckThenWrite:  writeCheckThenWrite,
	ReadModifyWrite: writeReadModifyWrite,
}

func between(ctx context.Context, ch Change) error {
	return ledger.Between(ctx, "pgaccount", ch.Between)
}

// errNoRow says the account row is missing (a server that lost its data).
var errNoRow = errors.New("pgaccount: account row missing")

// decrementSQL takes an amount from a row in one statement, whatever it was read as.
const decrementSQL = "UPDATE account SET balance = balance - $2, version = version + 1 WHERE id = $1"

// writeRow runs a write that must find its account row: 0 rows means the row is missing.
// what names the write in its error.
func writeRow(ctx context.Context, db *pgxpool.Pool, what, sql string, args ...any) (ledger.Outcome, error) {
	tag, err := db.Exec(ctx, sql, args...)
	if err != nil {
		return ledger.Failed, fmt.Errorf("pgaccount: %s write: %w", what, err)
	}
	if tag.RowsAffected() == 0 {
		return ledger.Failed, errNoRow
	}
	return ledger.Applied, nil
}

func writeUnfenced(ctx context.Context, db *pgxpool.Pool, ch Change) (ledger.Outcome, error) {
	if err := between(ctx, ch); err != nil {
		return ledger.Failed, err
	}
	return writeRow(ctx, db, "unfenced", decrementSQL, ch.Account, ch.Amount)
}

func writeFenced(ctx context.Context, db *pgxpool.Pool, ch Change) (ledger.Outcome, error) {
	if err := between(ctx, ch); err != nil {
		return ledger.Failed, err
	}
	tag, err := db.Exec(ctx,
		"UPDATE account SET balance = balance - $2, version = version + 1, fence = $3 WHERE id = $1 AND fence < $3",
		ch.Account, ch.Amount, ch.Token)
	if err != nil {
		return ledger.Failed, fmt.Errorf("pgaccount: fenced write: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return ledger.Refused, nil
	}
	return ledger.Applied, nil
}

// readRow reads the row a read-first guard builds on.
func readRow(ctx context.Context, db *pgxpool.Pool, id int) (balance, version, fence int64, err error) {
	err = db.QueryRow(ctx, "SELECT balance, version, fence FROM account WHERE id = $1", id).Scan(&balance, &version,
		&fence)
	if errors.Is(err, pgx.ErrNoRows) {
		err = errNoRow
	}
	return
}

func writeCheckThenWrite(ctx context.Context, db *pgxpool.Pool, ch Change) (ledger.Outcome, error) {
	balance, version, fence, err := readRow(ctx, db, ch.Account)
	if err != nil {
		return ledger.Failed, fmt.Errorf("pgaccount: check-then-write read: %w", err)
	}
	if fence >= ch.Token {
		return ledger.Refused, nil
	}
	if err := between(ctx, ch); err != nil {
		return ledger.Failed, err
	}
	return writeRow(ctx, db, "check-then-write", "UPDATE account SET balance = $2, version = $3, fence = $4 WHERE id = $1",
		ch.Account, balance-ch.Amount, version+1, ch.Token)
}

func writeReadModifyWrite(ctx context.Context, db *pgxpool.Pool, ch Change) (ledger.Outcome, error) {
	balance, version, _, err := readRow(ctx, db, ch.Account)
	if err != nil {
		return ledger.Failed, fmt.Errorf("pgaccount: read-modify-write read: %w", err)
	}
	if err := between(ctx, ch); err != nil {
		return ledger.Failed, err
	}
	return writeRow(ctx, db, "read-modify-write", "UPDATE account SET balance = $2, version = $3 WHERE id = $1",
		ch.Account, balance-ch.Amount, version+1)
}

// AccountAudit is one row judged against the log.
type AccountAudit struct {
	ID int `json:"id"`
	ledger.Tally
	Expected int64 `json:"expected_balance"` // initial - sum(applied amounts)
	Balance  int64 `json:"balance"`          // in the row
	Version  int64 `json:"version"`          // in the row
	Fence    int64 `json:"fence"`            // in the row
	// HighestToken is the highest token of an applied write that sets the fence
	// (fenced, check-then-write); FenceBehind says the row's fence is below it: a
	// stale holder's write landed after a newer one.
	HighestToken int64 `json:"highest_token"`
	FenceBehind  bool  `json:"fence_behind"`
	// LostAmount = Balance - Expected: money the applied changes took that the row
	// does not show.
	LostAmount int64 `json:"lost_amount"`
	// LostUpdates = Applied - Version: applied changes missing from the balance.
	LostUpdates int64 `json:"lost_updates"`
}

// Audit is the log judged against the rows.
type Audit struct {
	ledger.Tally
	Expected    int64 `json:"expected_balance"`
	Balance     int64 `json:"balance"` // the rows' sum
	LostAmount  int64 `json:"lost_amount"`
	LostUpdates int64 `json:"lost_updates"`
	// SideEffects counts outbox rows; RefusedSideEffects those sent for changes the
	// guard refused, UnappliedSideEffects those for changes not applied (refused or
	// failed): side effects that escaped.
	SideEffects          int            `json:"side_effects"`
	RefusedSideEffects   int            `json:"refused_side_effects"`
	UnappliedSideEffects int            `json:"unapplied_side_effects"`
	Accounts             []AccountAudit `json:"accounts"`
	// Duplicates counts applied changes whose IdempotencyKey an earlier applied change
	// already carried: a redelivery the database applied twice.
	Duplicates int `json:"duplicates"`
}

// Audit reads the rows and the outbox and judges them against the log. Call it when no
// change is in flight: one in flight is counted as Failed.
func (r *Resource) Audit(ctx context.Context) (Audit, error) {
	log := r.Log()
	byID := map[int64]Entry{}
	accts := map[int]*AccountAudit{}
	for id := 1; id <= r.accounts; id++ {
		accts[id] = &AccountAudit{ID: id, Expected: r.initial}
	}
	var a Audit
	appliedKeys := map[string]bool{}
	for _, e := range log {
		byID[e.ID] = e
		acc := accts[e.Change.Account]
		acc.Count(e.Outcome)
		a.Count(e.Outcome)
		if e.Outcome != ledger.Applied {
			continue
		}
		acc.Expected -= e.Change.Amount
		if k := e.Change.IdempotencyKey; k != "" {
			if appliedKeys[k] {
				a.Duplicates++
			}
			appliedKeys[k] = true
		}
		if (e.Mode.Guard == Fenced || e.Mode.Guard == CheckThenWrite) && e.Change.Token > acc.HighestToken {
			acc.HighestToken = e.Change.Token
		}
	}

	rows, err := r.pool.Query(ctx, "SELECT id, balance, version, fence FROM account ORDER BY id")
	if err != nil {
		return Audit{}, fmt.Errorf("pgaccount: audit: %w", err)
	}
	seen := 0
	for rows.Next() {
		var id int
		var balance, version, fence int64
		if err := rows.Scan(&id, &balance, &version, &fence); err != nil {
			rows.Close()
			return Audit{}, fmt.Errorf("pgaccount: audit: %w", err)
		}
		acc, ok := accts[id]
		if !ok {
			continue
		}
		seen++
		acc.Balance, acc.Version, acc.Fence = balance, version, fence
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return Audit{}, fmt.Errorf("pgaccount: audit: %w", err)
	}
	if seen != r.accounts {
		return Audit{}, fmt.Errorf("pgaccount: audit: %d of %d account rows found", seen, r.accounts)
	}

	outbox, err := r.pool.Query(ctx, "SELECT change_id FROM outbox ORDER BY seq")
	if err != nil {
		return Audit{}, fmt.Errorf("pgaccount: audit outbox: %w", err)
	}
	changeIDs, err := pgx.CollectRows(outbox, pgx.RowTo[int64])
	if err != nil {
		return Audit{}, fmt.Errorf("pgaccount: audit outbox: %w", err)
	}
	for _, cid := range changeIDs {
		a.SideEffects++
		e, ok := byID[cid]
		if !ok || e.Outcome != ledger.Applied {
			a.UnappliedSideEffects++
		}
		if ok && e.Outcome == ledger.Refused {
			a.RefusedSideEffects++
		}
	}

	ids := make([]int, 0, len(accts))
	for id := range accts {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	for _, id := range ids {
		acc := accts[id]
		acc.LostAmount, acc.LostUpdates = ledger.Lost(acc.Balance, acc.Expected, acc.Applied, acc.Version)
		acc.FenceBehind = acc.Fence < acc.HighestToken
		a.Expected += acc.Expected
		a.Balance += acc.Balance
		a.LostAmount += acc.LostAmount
		a.LostUpdates += acc.LostUpdates
		a.Accounts = append(a.Accounts, *acc)
	}
	return a, nil
}
