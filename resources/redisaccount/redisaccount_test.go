package redisaccount

import (
	"context"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/resources/accounttest"
	"github.com/lockbench/lockbench/resources/ledger"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

const initial = 1000

// startRedis starts a redis-server for this test and returns its address.
func startRedis(t *testing.T) string {
	t.Helper()
	testenv.RequireRedis(t)
	topo := testenv.Start(t, backend.Spec{Kind: topologies.Single})
	return topo.Masters()[0].Addr()
}

// open starts a server for this test and opens a resource with accounts hashes on it.
func open(t *testing.T, accounts int) (*Resource, context.Context) {
	t.Helper()
	addr := startRedis(t)
	ctx := accounttest.Ctx(t)
	r, err := Open(ctx, addr, "test:", accounts, initial)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r, ctx
}

// paused runs ch with method m and its client paused in Between (after its read),
// waits until it is there, runs during (the other client's whole change), lets it go
// and returns its outcome.
func paused(t *testing.T, ctx context.Context, r *Resource, m Method, ch Change, during func()) accounttest.Result {
	t.Helper()
	return accounttest.PausedChange(t, m, ch.Client, func(between func(context.Context) error) (ledger.Outcome, int, error) {
		ch.Between = between
		return r.Apply(ctx, m, ch)
	}, during)
}

func mustApply(t *testing.T, ctx context.Context, r *Resource, m Method, ch Change) int {
	t.Helper()
	out, retries, err := r.Apply(ctx, m, ch)
	if err != nil || out != ledger.Applied {
		t.Fatalf("%s by %s: got %v, %v; want applied", m, ch.Client, out, err)
	}
	return retries
}

func audit(t *testing.T, ctx context.Context, r *Resource) Audit {
	t.Helper()
	return accounttest.Audit(t, ctx, r.Audit)
}

// The read-modify-write race: a reads, pauses, b applies its whole change, a writes.
// The checked methods see the version moved and retry, losing nothing; plain writes
// its stale computation over b's, losing exactly b's update (the interleaving happened).
func TestRaceBetweenReadAndWrite(t *testing.T) {
	for _, m := range Methods.All() {
		t.Run(string(m), func(t *testing.T) {
			r, ctx := open(t, 1)
			res := paused(t, ctx, r, m, Change{Client: "a", Account: 1, Amount: 10}, func() {
				if retries := mustApply(t, ctx, r, m, Change{Client: "b", Account: 1, Amount: 30}); retries != 0 {
					t.Errorf("b retried %d times with no one between its read and write", retries)
				}
			})
			if res.Err != nil || res.Out != ledger.Applied {
				t.Fatalf("a: %v %v", res.Out, res.Err)
			}
			a := audit(t, ctx, r)
			if m == Plain {
				if a.Applied != 2 || a.LostUpdates != 1 || a.LostAmount != 30 || a.Balance != initial-10 {
					t.Fatalf("want 2 applied, 1 lost (b's 30), balance %d: %+v", initial-10, a)
				}
				return
			}
			if res.Retries < 1 {
				t.Fatalf("a applied after %d retries; want >= 1 (b wrote between its read and write)", res.Retries)
			}
			if a.Applied != 2 || a.LostUpdates != 0 || a.LostAmount != 0 || a.Balance != initial-40 {
				t.Fatalf("want 2 applied, 0 lost, balance %d: %+v", initial-40, a)
			}
		})
	}
}

// Concurrent changes on one hot hash: the checked methods retry every conflict and
// lose nothing.
func TestCheckedMethodsConcurrentLoseNothing(t *testing.T) {
	const clients, each = 8, 50
	addr := startRedis(t)
	for _, m := range []Method{LuaCAS, WatchMulti} {
		t.Run(string(m), func(t *testing.T) {
			ctx := accounttest.Ctx(t)
			r, err := Open(ctx, addr, string(m)+":", 1, initial)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			errs, _ := accounttest.Concurrently(clients, each, func(client string) (ledger.Outcome, int, error) {
				return r.Apply(ctx, m, Change{Client: client, Account: 1, Amount: 1})
			})
			if len(errs) > 0 {
				t.Fatalf("%s: %v", m, errs)
			}
			a := audit(t, ctx, r)
			if a.Applied != clients*each || a.LostUpdates != 0 || a.LostAmount != 0 || a.Balance != initial-clients*each {
				t.Fatalf("want %d applied, 0 lost, balance %d: %+v", clients*each, initial-clients*each, a)
			}
		})
	}
}

// Every method writes and audits clean alone, on its own account, and Open resets the
// hashes under its prefix only.
func TestEveryMethodAloneAndReset(t *testing.T) {
	addr := startRedis(t)
	ctx := accounttest.Ctx(t)
	other, err := Open(ctx, addr, "other:", 1, initial)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	mustApply(t, ctx, other, Plain, Change{Client: "o", Account: 1, Amount: 5})
	for round := 0; round < 2; round++ {
		r, err := Open(ctx, addr, "t:", len(Methods.All()), initial)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range Methods.All() {
			mustApply(t, ctx, r, m, Change{Client: "a", Account: i + 1, Amount: 7})
			mustApply(t, ctx, r, m, Change{Client: "a", Account: i + 1, Amount: 3})
		}
		a, err := r.Audit(ctx)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		if a.Intended != 6 || a.Applied != 6 || a.LostUpdates != 0 || a.Retries != 0 || a.Balance != 3*initial-30 {
			t.Fatalf("round %d: %+v", round, a)
		}
		for _, acc := range a.Accounts {
			if acc.Version != 2 || acc.Balance != initial-10 {
				t.Fatalf("round %d: account %+v; want version 2, balance %d", round, acc, initial-10)
			}
		}
	}
	if a := audit(t, ctx, other); a.Balance != initial-5 || a.LostUpdates != 0 {
		t.Fatalf("another prefix's hash was touched: %+v", a)
	}
}

func TestParseMethod(t *testing.T) {
	accounttest.CheckParse(t, Methods.All(), Methods.Parse, []string{"cas", "", "lua-cas ", "atomic"}, WatchMulti)
	// A bad method or account is refused before any command, and not logged.
	r := &Resource{accounts: 1}
	if _, _, err := r.Apply(context.Background(), "optimistic", Change{Account: 1}); err == nil || !strings.Contains(err.Error(), `"optimistic"`) {
		t.Fatalf("Apply with a bad method: %v", err)
	}
	if _, _, err := r.Apply(context.Background(), LuaCAS, Change{Account: 2}); err == nil || !strings.Contains(err.Error(), "account 2") {
		t.Fatalf("Apply to a missing account: %v", err)
	}
	if len(r.Log()) != 0 {
		t.Fatal("a refused change was logged as intended")
	}
}
