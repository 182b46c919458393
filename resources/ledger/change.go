package ledger

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// ParseName turns name into the member of all it spells; an unknown name is an error,
// prefixed with unknown, that names it and the known ones.
func ParseName[T ~string](all []T, name, unknown string) (T, error) {
	if err := CheckName(all, T(name), unknown); err != nil {
		return "", err
	}
	return T(name), nil
}

// CheckName says whether m is a member of all, as ParseName does.
func CheckName[T ~string](all []T, m T, unknown string) error {
	if slices.Contains(all, m) {
		return nil
	}
	known := make([]string, len(all))
	for i, k := range all {
		known[i] = string(k)
	}
	return fmt.Errorf("%s %q (known: %s)", unknown, string(m), strings.Join(known, ", "))
}

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
