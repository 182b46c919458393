// Package redisaccount is the protected resource on Redis: an account hash per id,
// <prefix>account:<id>, with fields balance and version, and the lock-free methods
// that write it (the data store judges each change; no lock is taken).
//
// Like pgaccount, a Resource keeps the ground truth client-side: every intended change
// is logged with what Redis said about it, and Audit compares the log with the hashes.
// Every write sets version to the version of the state it built on plus one, and
// balance to that state's balance minus its amount, so a hash always holds initial
// minus exactly `version` applied changes, and applied - version is the number of
// applied changes the balance lost.
package redisaccount

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/resources/ledger"
)

// Method is how a change is written to the account hash: one of Methods.
type Method string

// Methods are the methods, in a fixed order: Methods.Parse turns a name into one, and
// refuses an unknown name with an error naming it and the known ones.
var Methods = ledger.NewNames("redisaccount: unknown method", LuaCAS, WatchMulti, Plain)

const (
	// LuaCAS: HMGET balance and version, then a script that writes both only if the
	// version is still the one read; 0 means another write came between: retry.
	LuaCAS Method = "lua-cas"
	// WatchMulti: WATCH the hash, HMGET, then MULTI HSET EXEC; an EXEC that the watch
	// aborted means another write came between: retry.
	WatchMulti Method = "watch-multi"
	// Plain: HMGET, compute, HSET with no check: the unsafe read-modify-write, a
	// contrast that loses updates.
	Plain Method = "plain"
)

// Change is one intended change: client takes Amount from Account.
type Change struct {
	Client  string
	Account int
	Amount  int64
	// Between, if set, runs once, on the first attempt, after the read and before the
	// write: a caller pauses its client there to make a race reproducible. An error
	// abandons the change (Failed, nothing written).
	Between func(ctx context.Context) error
}

// Entry is one logged change and its outcome.
type Entry struct {
	ID      int64
	Method  Method
	Change  Change
	Outcome ledger.Outcome
	Retries int
	Err     error
}

// Resource is a Redis server holding the account hashes, and the client-side log of
// every change intended on them.
type Resource struct {
	client   *redis.Client
	prefix   string
	accounts int
	initial  int64

	log ledger.Log[Entry]
}

// Open connects to the Redis server at addr and resets the hashes under prefix:
// accounts hashes with ids 1..accounts, each holding initial at version 0. The hashes
// belong to one Resource at a time: a second Open with the same prefix resets them
// under the first.
func Open(ctx context.Context, addr, prefix string, accounts int, initial int64) (*Resource, error) {
	if accounts < 1 {
		return nil, fmt.Errorf("redisaccount: accounts = %d: must be >= 1", accounts)
	}
	c := redis.NewClient(&redis.Options{
		Addr: addr,
		// Never resend a write: a CAS or EXEC that landed and lost its reply would,
		// resent, fail its check, be retried and land twice.
		MaxRetries:      -1,
		DisableIdentity: true,
		Protocol:        2,
	})
	r := &Resource{client: c, prefix: prefix, accounts: accounts, initial: initial}
	if err := r.reset(ctx); err != nil {
		c.Close()
		return nil, fmt.Errorf("redisaccount: reset %s: %w", addr, err)
	}
	return r, nil
}

func (r *Resource) reset(ctx context.Context) error {
	_, err := r.client.TxPipelined(ctx, func(p redis.Pipeliner) error {
		for id := 1; id <= r.accounts; id++ {
			p.Del(ctx, r.key(id))
			p.HSet(ctx, r.key(id), "balance", r.initial, "version", 0)
		}
		return nil
	})
	return err
}

// Close closes the resource's connections; the hashes stay.
func (r *Resource) Close() { r.client.Close() }

// Accounts and InitialBalance are what Open set.
func (r *Resource) Accounts() int         { return r.accounts }
func (r *Resource) InitialBalance() int64 { return r.initial }

// key is the name of account id's hash.
func (r *Resource) key(id int) string { return r.prefix + "account:" + strconv.Itoa(id) }

// Apply applies one intended change with method m, logs it with its outcome, and
// returns the outcome (none of the current methods refuses) and how many times it retried.
func (r *Resource) Apply(ctx context.Context, m Method, ch Change) (ledger.Outcome, int, error) {
	if err := Methods.Check(m); err != nil {
		return ledger.Failed, 0, err
	}
	if err := ledger.CheckAccount("redisaccount", ch.Account, r.accounts); err != nil {
		return ledger.Failed, 0, err
	}
	id := r.log.Begin(Entry{Method: m, Change: ch}, stampID)

	var outcome ledger.Outcome
	var retries int
	var err error
	switch m {
	case LuaCAS:
		outcome, retries, err = r.writeLuaCAS(ctx, ch)
	case WatchMulti:
		outcome, retries, err = r.writeWatchMulti(ctx, ch)
	default:
		outcome, err = r.writePlain(ctx, ch)
	}
	if err != nil && outcome != ledger.Failed {
		outcome = ledger.Failed
	}

	r.log.Complete(id, func(e *Entry) { e.Outcome, e.Retries, e.Err = outcome, retries, err })
	return outcome, retries, err
}

// Log returns a copy of the client-side log, in the order changes were begun.
func (r *Resource) Log() []Entry { return r.log.Entries() }

func stampID(e *Entry, id int64) { e.ID = id }

func between(ctx context.Context, ch Change) error {
	return ledger.Between(ctx, "redisaccount", ch.Between)
}

// errNoHash says the account hash is missing (a server that lost its data).
var errNoHash = errors.New("redisaccount: account hash missing")

// readAccount reads the balance and version a write builds on.
func readAccount(ctx context.Context, c redis.Cmdable, key string) (balance, version int64, err error) {
	vals, err := c.HMGet(ctx, key, "balance", "version").Result()
	if err != nil {
		return 0, 0, err
	}
	var out [2]int64
	for i, v := range vals {
		s, ok := v.(string)
		if !ok {
			return 0, 0, fmt.Errorf("%w: %s", errNoHash, key)
		}
		if out[i], err = strconv.ParseInt(s, 10, 64); err != nil {
			return 0, 0, fmt.Errorf("redisaccount: %s: %w", key, err)
		}
	}
	return out[0], out[1], nil
}

// casScript writes balance ARGV[2] and version ARGV[3] only if the version is still
// ARGV[1]: one server-side step, so no write can land between the check and the set.
var casScript = redis.NewScript(`
if redis.call("HGET", KEYS[1], "version") == ARGV[1] then
  redis.call("HSET", KEYS[1], "balance", ARGV[2], "version", ARGV[3])
  return 1
end
return 0`)

func (r *Resource) writeLuaCAS(ctx context.Context, ch Change) (ledger.Outcome, int, error) {
	key := r.key(ch.Account)
	for retries := 0; ; retries++ {
		balance, version, err := readAccount(ctx, r.client, key)
		if err != nil {
			return ledger.Failed, retries, fmt.Errorf("redisaccount: lua-cas read: %w", err)
		}
		// The race hook runs once: a retry is the method recovering, not a new race.
		if retries == 0 {
			if err := between(ctx, ch); err != nil {
				return ledger.Failed, retries, err
			}
		}
		n, err := casScript.Run(ctx, r.client, []string{key}, version, balance-ch.Amount, version+1).Int()
		if err != nil {
			return ledger.Failed, retries, fmt.Errorf("redisaccount: lua-cas write: %w", err)
		}
		if n == 1 {
			return ledger.Applied, retries, nil
		}
		if err := giveUp(ctx, LuaCAS, ch, retries); err != nil {
			return ledger.Failed, retries, err
		}
	}
}

func (r *Resource) writeWatchMulti(ctx context.Context, ch Change) (ledger.Outcome, int, error) {
	key := r.key(ch.Account)
	for retries := 0; ; retries++ {
		var inWatch error // an error of the watched steps, already named
		err := r.client.Watch(ctx, func(tx *redis.Tx) error {
			inWatch = watchedWrite(ctx, tx, key, ch, retries == 0)
			return inWatch
		}, key)
		switch {
		case err == nil:
			return ledger.Applied, retries, nil
		case errors.Is(err, redis.TxFailedErr):
			if err := giveUp(ctx, WatchMulti, ch, retries); err != nil {
				return ledger.Failed, retries, err
			}
		case err == inWatch:
			return ledger.Failed, retries, err
		default:
			return ledger.Failed, retries, fmt.Errorf("redisaccount: watch-multi watch: %w", err)
		}
	}
}

// watchedWrite reads the watched hash and writes it in MULTI/EXEC; EXEC aborted by the
// watch returns redis.TxFailedErr.
func watchedWrite(ctx context.Context, tx *redis.Tx, key string, ch Change, first bool) error {
	balance, version, err := readAccount(ctx, tx, key)
	if err != nil {
		return fmt.Errorf("redisaccount: watch-multi read: %w", err)
	}
	if first {
		if err := between(ctx, ch); err != nil {
			return err
		}
	}
	_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.HSet(ctx, key, "balance", balance-ch.Amount, "version", version+1)
		return nil
	})
	if err != nil {
		return fmt.Errorf("redisaccount: watch-multi write: %w", err)
	}
	return nil
}

// giveUp says why a change whose check failed is not retried again, or nil to retry.
func giveUp(ctx context.Context, m Method, ch Change, retries int) error {
	if retries >= ledger.MaxRetries {
		return fmt.Errorf("redisaccount: %s: account %d's version moved under every one of %d retries", m, ch.Account,
			retries)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("redisaccount: %s: gave up after %d retries: %w", m, retries, err)
	}
	return nil
}

func (r *Resource) writePlain(ctx context.Context, ch Change) (ledger.Outcome, error) {
	key := r.key(ch.Account)
	balance, version, err := readAccount(ctx, r.client, key)
	if err != nil {
		return ledger.Failed, fmt.Errorf("redisaccount: plain read: %w", err)
	}
	if err := between(ctx, ch); err != nil {
		return ledger.Failed, err
	}
	if err := r.client.HSet(ctx, key, "balance", balance-ch.Amount, "version", version+1).Err(); err != nil {
		return ledger.Failed, fmt.Errorf("redisaccount: plain write: %w", err)
	}
	return ledger.Applied, nil
}

// AccountAudit is one hash judged against the log.
type AccountAudit struct {
	ID int `json:"id"`
	ledger.Tally
	Retries  int   `json:"retries"`
	Expected int64 `json:"expected_balance"` // initial - sum(applied amounts)
	Balance  int64 `json:"balance"`          // in the hash
	Version  int64 `json:"version"`          // in the hash
	// LostAmount = Balance - Expected: money the applied changes took that the hash
	// does not show.
	LostAmount int64 `json:"lost_amount"`
	// LostUpdates = Applied - Version: applied changes missing from the balance.
	LostUpdates int64 `json:"lost_updates"`
}

// Audit is the log judged against the hashes.
type Audit struct {
	ledger.Tally
	Retries     int            `json:"retries"`
	Expected    int64          `json:"expected_balance"`
	Balance     int64          `json:"balance"` // the hashes' sum
	LostAmount  int64          `json:"lost_amount"`
	LostUpdates int64          `json:"lost_updates"`
	Accounts    []AccountAudit `json:"accounts"`
}

// Audit reads the hashes and judges them against the log. Call it when no change is in
// flight: one in flight is counted as Failed.
func (r *Resource) Audit(ctx context.Context) (Audit, error) {
	accts := make([]AccountAudit, r.accounts)
	for i := range accts {
		accts[i] = AccountAudit{ID: i + 1, Expected: r.initial}
	}
	var a Audit
	for _, e := range r.Log() {
		acc := &accts[e.Change.Account-1]
		acc.Count(e.Outcome)
		acc.Retries += e.Retries
		a.Count(e.Outcome)
		a.Retries += e.Retries
		if e.Outcome == ledger.Applied {
			acc.Expected -= e.Change.Amount
		}
	}
	for i := range accts {
		acc := &accts[i]
		balance, version, err := readAccount(ctx, r.client, r.key(acc.ID))
		if err != nil {
			return Audit{}, fmt.Errorf("redisaccount: audit: %w", err)
		}
		acc.Balance, acc.Version = balance, version
		acc.LostAmount, acc.LostUpdates = ledger.Lost(acc.Balance, acc.Expected, acc.Applied, acc.Version)
		a.Expected += acc.Expected
		a.Balance += acc.Balance
		a.LostAmount += acc.LostAmount
		a.LostUpdates += acc.LostUpdates
	}
	a.Accounts = accts
	return a, nil
}
