// Package updates is every way to get one correct update of an account row, behind
// one interface the load engine drives (bench.Updater): a lock strategy plus a guarded
// write on PostgreSQL, or a lock-free statement the data store judges by itself
// (PostgreSQL's cas-version, unique-key and atomic; Redis's lua-cas and watch-multi).
// Each way audits itself afterwards, so lost updates are counted, never assumed.
package updates

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/bench"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/resources/pgaccount"
	"github.com/lockbench/lockbench/topologies"
)

// Audit is what a way's store holds against what it was told, after a run.
type Audit struct {
	Intended    int   `json:"intended"`
	Applied     int   `json:"applied"`
	Refused     int   `json:"refused"`
	Failed      int   `json:"failed"`
	LostUpdates int64 `json:"lost_updates"` // applied changes missing from the rows
	LostAmount  int64 `json:"lost_amount"`
	Duplicates  int   `json:"duplicates"` // one change applied more than once
}

// Way is one way to update, with the audit of what it did.
type Way interface {
	bench.Updater
	// Name is the strategy, and the guard for a lock strategy: "etcd+fenced".
	Name() string
	Audit(ctx context.Context) (Audit, error)
	Close() error
}

// Setup is what a way is built from.
type Setup struct {
	Strategy string // a lock strategy of package locks, or a lock-free one
	Guard    string // a pgaccount mode for a lock strategy; empty for a lock-free one
	// Topology is the strategy's own deployment (locks.TopologyFor or TopologyFor).
	Topology topologies.Topology
	// PostgresDSN is the database holding the account rows (lock strategies and the
	// PostgreSQL lock-free ones).
	PostgresDSN string
	Clients     int
	Rows        int
	// Prefix keeps one run's keys apart from another's on a shared server.
	Prefix string
	// TTL is the lock's lease (lock strategies only).
	TTL time.Duration
	// RetryDelay is the first pause after a refused lock attempt; it doubles to
	// MaxRetryDelay. Lock-free ways retry at once: the store already serialized them.
	RetryDelay, MaxRetryDelay time.Duration
	// Locker is the lock strategy's options (its timeouts; zero for the defaults). Its
	// pool is sized by Clients.
	Locker locks.Options
}

// initialBalance is every row's starting balance: far more than a run takes.
const initialBalance = 1 << 40

// New builds the way setup names.
func New(ctx context.Context, s Setup) (Way, error) {
	if err := Validate(s.Strategy, s.Guard); err != nil {
		return nil, err
	}
	if lf, ok := lockFree[s.Strategy]; ok {
		return lf.build(ctx, s)
	}
	return newLocked(ctx, s)
}

// Validate says whether strategy and guard make a way: a lock strategy needs a guard
// mode, one that checks a fence needs a strategy with a fence, and a lock-free
// strategy takes no guard (it is its own).
func Validate(strategy, guard string) error {
	if _, ok := lockFree[strategy]; ok {
		if guard != "" {
			return fmt.Errorf("strategy %s is lock-free: it takes no guard (got %q)", strategy, guard)
		}
		return nil
	}
	if _, err := locks.TopologyFor(strategy); err != nil {
		return fmt.Errorf("%w (lock-free: %s)", err, strings.Join(LockFree(), ", "))
	}
	mode, err := pgaccount.ParseMode(guard)
	if err != nil {
		return err
	}
	if NeedsFence(mode) {
		if source, _ := FenceOf(strategy); source == NoFence {
			return fmt.Errorf(
				"guard %s needs a fencing token and strategy %s has none (no counter every grant passes through)", guard, strategy)
		}
	}
	return nil
}

// NeedsFence says whether a guard mode compares tokens.
func NeedsFence(m pgaccount.Mode) bool {
	return m.Guard == pgaccount.Fenced || m.Guard == pgaccount.CheckThenWrite
}

// IsLockFree says whether strategy is one of this package's lock-free ways.
func IsLockFree(strategy string) bool { _, ok := lockFree[strategy]; return ok }

// LockFree lists the lock-free strategies, sorted.
func LockFree() []string {
	var out []string
	for name := range lockFree {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// TopologyFor is the deployment a strategy of either kind runs on.
func TopologyFor(strategy string) (backend.Spec, error) {
	if lf, ok := lockFree[strategy]; ok {
		return lf.spec, nil
	}
	return locks.TopologyFor(strategy)
}

// NeedsPostgres says whether the way keeps its rows in PostgreSQL.
func NeedsPostgres(strategy string) bool {
	lf, ok := lockFree[strategy]
	return !ok || lf.spec.Kind == topologies.Postgres
}

// GuardNeedsFence is NeedsFence for a guard mode's name; an unknown name needs none.
func GuardNeedsFence(guard string) bool {
	m, err := pgaccount.ParseMode(guard)
	return err == nil && NeedsFence(m)
}
