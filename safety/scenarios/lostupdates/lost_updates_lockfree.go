package lostupdates

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/safety/scenarios/lostupdates/accounts"
)

// The lock-free guards: no lock at all, the database judges every write. They run
// under the faults that reach a writer without a lock: a pause in the middle of its
// change (another client's change lands between its read and its write), and a
// redelivery (its reply was lost, so it sends the same change again).
var lockFreeModes = []string{"cas-version", "unique-key", "atomic"}

// LockFreeModes are the lock-free modes lost-updates writes with.
func LockFreeModes() []string { return append([]string(nil), lockFreeModes...) }

// Fault names of the lock-free variants.
const (
	lockFreePause      = "pause"
	lockFreeRedelivery = "redelivery"
)

var lockFreeFaults = map[string]string{
	lockFreePause: "A stops (pause-factor x ttl) between its read and its write; B makes its whole change meanwhile",
	lockFreeRedelivery: "A's change is applied, its reply is taken as lost, and A sends the same change (same " +
		"idempotency key) again",
}

var lockFreeWhat = map[string]string{
	"cas-version": "read balance and version, UPDATE ... WHERE version = $v, retry from the read on 0 rows",
	"unique-key":  "INSERT the change's idempotency key ON CONFLICT DO NOTHING, then the decrement, in one transaction",
	"atomic":      "UPDATE balance = balance - amount, one statement",
}

type lockFreeVariant struct {
	lab.Variant
	fault, mode string
}

// lockFreeClaims: none loses an update under either fault; on a redelivery only the
// unique key refuses the second copy, the others apply it twice.
func lockFreeClaims(fault, mode string) []results.Claim {
	cs := []results.Claim{results.Holds(results.LostUpdates)}
	if fault == lockFreeRedelivery {
		if mode == "unique-key" {
			cs = append(cs, results.Holds(results.Duplicates))
		} else {
			cs = append(cs, results.Always(results.Duplicates))
		}
	}
	return cs
}

func lockFreeVariants(faults, modes []string) []lockFreeVariant {
	var out []lockFreeVariant
	for _, f := range faults {
		for _, m := range modes {
			claims := lockFreeClaims(f, m)
			out = append(out, lockFreeVariant{Variant: lab.Variant{Variant: &results.Variant{
				Name:        f + "/" + m,
				Description: fmt.Sprintf("no lock: %s. Guard: %s.", lockFreeFaults[f], lockFreeWhat[m]),
				Params:      map[string]string{"break": f, "strategy": m, "fence": "none", "guard": ""},
				Measure:     results.LostUpdates,
				Claims:      claims,
			}}, fault: f, mode: m})
		}
	}
	return out
}

// lockFreeTrial: A changes the row, then changes it again under the fault; B changes
// it in between (pause). The audit of the row gives the counts.
func lockFreeTrial(ctx context.Context, cfg lostUpdatesConfig, v lockFreeVariant, t *lab.Trial) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	acct, err := cfg.open(ctx, cfg.dsn)
	if err != nil {
		return lab.Failed("setup", fmt.Errorf("accounts: %w", err))
	}
	defer acct.Close()
	apply := func(client, key string, amount int64, between func(context.Context) error) (accounts.Outcome, error) {
		out, err := acct.Apply(ctx, v.mode, accounts.Change{Client: client, Key: key, Amount: amount, Between: between})
		if err != nil || out == accounts.Failed {
			return out, lab.Failed("resource", fmt.Errorf("%s's change %s: %v", client, key, err))
		}
		return out, nil
	}
	if out, err := apply("A", t.Key+":A1", firstAmount, nil); err != nil {
		return err
	} else if out != accounts.Applied {
		return lab.Failed("setup", fmt.Errorf("A's first change, alone on the row, was %s", out))
	}
	bOut := accounts.Outcome("")
	switch v.fault {
	case lockFreePause:
		pause := time.Duration(cfg.pauseFactor * float64(cfg.ttl))
		var stopped time.Duration
		between := func(ctx context.Context) error {
			if bOut != "" {
				return nil // a retry of A's (cas-version): the fault happened once
			}
			began := time.Now()
			out, err := apply("B", t.Key+":B1", honestAmount, nil)
			if err != nil {
				return err
			}
			bOut = out
			if err := lab.Sleep(ctx, pause-time.Since(began)); err != nil {
				return err
			}
			stopped = time.Since(began)
			return nil
		}
		aOut, err := apply("A", t.Key+":A2", staleAmount, between)
		if err != nil {
			return err
		}
		if bOut == "" {
			return lab.Failed("trial", fmt.Errorf("A's change was %s without reaching its write", aOut))
		}
		t.Input("stopped_ms", lab.Millis(stopped))
		t.Prove("A stopped %v between its read and its write; B's change was %s in that time; then A's was %s",
			stopped.Round(time.Millisecond), bOut, aOut)
	case lockFreeRedelivery:
		first, err := apply("A", t.Key+":A2", staleAmount, nil)
		if err != nil {
			return err
		}
		again, err := apply("A", t.Key+":A2", staleAmount, nil)
		if err != nil {
			return err
		}
		t.Prove("A's change %s:A2 was delivered twice: first %s, then %s", t.Key, first, again)
	}
	audit, err := acct.Audit(ctx)
	if err != nil {
		return lab.Failed("audit", err)
	}
	lost := audit.LostUpdates
	if bOut == accounts.Refused {
		lost++ // B's change, refused: lost as surely
	}
	t.Input("balance", float64(audit.Balance))
	t.Input("expected_balance", float64(audit.Expected))
	t.Count(results.LostUpdates, lost)
	t.Count(results.Duplicates, audit.Duplicates)
	t.Prove("audit: row balance %d (expected %d), version %d of %d applied, %d applied twice", audit.Balance,
		audit.Expected, audit.Version, audit.Applied, audit.Duplicates)
	return nil
}
