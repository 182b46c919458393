// Package accounts is the resource lost-updates protects, as the scenario sees it: a
// store that keeps account rows registers one (PostgreSQL's: pgstore), so that the lab
// itself carries no database driver.
package accounts

import (
	"context"
	"errors"
	"sync"
)

// Resource is what lost-updates protects: account rows in a database, each
// change written under a guard mode and logged client-side, and an audit that reads
// the rows back against that log. resources/pgaccount is it (backends/postgres/pgresource).
type Resource interface {
	// Apply makes one change to the one account row in mode (one of lost-updates' AccountModes),
	// and says what the database answered; a refusal is not an error.
	Apply(ctx context.Context, mode string, ch Change) (Outcome, error)
	// NextFence is the next value of a sequence on the same database.
	NextFence(ctx context.Context) (int64, error)
	// Audit judges the row and the side effects against every change intended.
	Audit(ctx context.Context) (Audit, error)
	Close()
}

// Change is one intended change: Client, holding Token, takes Amount. Between
// runs just before the guarded write statement (after the read of a read-first guard,
// after the side effect of an outbox one).
type Change struct {
	Client  string
	Token   int64
	Amount  int64
	Between func(ctx context.Context) error
	// Key identifies the change (a lock-free unique-key write needs one; a redelivered
	// change carries the same).
	Key string
}

// Outcome is what the database said about a change.
type Outcome string

const (
	Applied Outcome = "applied"
	Refused Outcome = "refused"
	Failed  Outcome = "failed" // an error: whether the write landed is unknown
)

// Audit is the row and the outbox read back, judged against the log.
type Audit struct {
	Applied, Refused, Failed int
	// LostUpdates are applied changes the balance does not show (from the version
	// every write sets); LostAmount the money they took.
	LostUpdates int
	LostAmount  int64
	Balance     int64 // in the row
	Expected    int64 // initial - every applied amount
	Version     int64 // in the row
	Fence       int64 // in the row
	// SideEffects are outbox rows; EscapedSideEffects those of changes not applied.
	SideEffects, EscapedSideEffects int
	// Duplicates are applied changes whose Key an earlier applied change had.
	Duplicates int
}

// Open opens the resource on the database at dsn, its tables reset: one row.
type Open func(ctx context.Context, dsn string) (Resource, error)

var (
	mu         sync.Mutex
	registered Open
	modesOf    []string
)

// Register makes lost-updates runnable: open is its resource, which knows modes. A
// second registration is a programming error and panics.
func Register(open Open, modes []string) {
	mu.Lock()
	defer mu.Unlock()
	if registered != nil {
		panic("accounts: a resource registered twice")
	}
	registered, modesOf = open, modes
}

// Registered is the registered resource and its modes, or an error saying where it lives.
func Registered() (Open, []string, error) {
	mu.Lock()
	defer mu.Unlock()
	if registered == nil {
		return nil, nil, errors.New("lost-updates needs its account resource on PostgreSQL: import " +
			"github.com/lockbench/lockbench/backends/all (cmd/lockbench does)")
	}
	return registered, modesOf, nil
}
