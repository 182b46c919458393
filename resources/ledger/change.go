package ledger

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Names is a closed set of names, in a fixed order: a resource's ways of writing a
// change, which a flag or a config spells.
type Names[T ~string] struct {
	all     []T
	unknown string // an error's first words for a name outside the set
}

// NewNames is the set of all, in that order; unknown begins the error for any other
// name ("pgaccount: unknown lock-free method").
func NewNames[T ~string](unknown string, all ...T) Names[T] {
	return Names[T]{all: all, unknown: unknown}
}

// All lists the set, in its order.
func (n Names[T]) All() []T { return slices.Clone(n.all) }

// Parse turns name into the member it spells; an unknown name is an error that names
// it and the known ones.
func (n Names[T]) Parse(name string) (T, error) {
	if err := n.Check(T(name)); err != nil {
		return "", err
	}
	return T(name), nil
}

// Check says whether m is a member, as Parse does.
func (n Names[T]) Check(m T) error {
	if slices.Contains(n.all, m) {
		return nil
	}
	known := make([]string, len(n.all))
	for i, k := range n.all {
		known[i] = string(k)
	}
	return fmt.Errorf("%s %q (known: %s)", n.unknown, string(m), strings.Join(known, ", "))
}

// MaxRetries bounds the retries of one change by a method that retries when another
// write came between: past it the change fails rather than spinning on a record that
// never stops moving.
const MaxRetries = 10000

// CheckAccount refuses an account id outside 1..accounts before anything is logged.
func CheckAccount(pkg string, id, accounts int) error {
	if id < 1 || id > accounts {
		return fmt.Errorf("%s: account %d: out of range 1..%d", pkg, id, accounts)
	}
	return nil
}

// Between runs a change's Between hook, if it has one; its error, named for pkg,
// abandons the change.
func Between(ctx context.Context, pkg string, hook func(context.Context) error) error {
	if hook == nil {
		return nil
	}
	if err := hook(ctx); err != nil {
		return fmt.Errorf("%s: between: %w", pkg, err)
	}
	return nil
}

// Lost is what a store lost, judged by the invariant every write keeps (version is
// the number of writes the balance holds): lostAmount = balance - expected, and
// lostUpdates = applied - version.
func Lost(balance, expected int64, applied int, version int64) (lostAmount, lostUpdates int64) {
	return balance - expected, int64(applied) - version
}
