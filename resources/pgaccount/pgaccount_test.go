package pgaccount

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/postgres/pgtopo"
	"github.com/lockbench/lockbench/resources/accounttest"
	"github.com/lockbench/lockbench/resources/ledger"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

const initial = 1000

// open opens a resource with accounts rows in a database of this test's own, on the
// package's one server: the tests pause clients, never the server.
func open(t *testing.T, accounts int) *Resource {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := Open(ctx, ownDatabase(t), accounts, initial)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

// databases numbers the databases the tests create on the shared server.
var databases atomic.Int64

// ownDatabase creates a database for this test on the package's shared server and
// returns its DSN: the resource's tables have fixed names, so tests sharing the server
// keep apart by database (a CREATE DATABASE costs a fraction of a server's start).
func ownDatabase(t *testing.T) string {
	t.Helper()
	testenv.RequirePostgres(t)
	srv := testenv.Shared(t, backend.Spec{Kind: topologies.Postgres}).(*pgtopo.Server)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, srv.DSN())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	name := fmt.Sprintf("accounts_%d", databases.Add(1))
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create database %s: %v", name, err)
	}
	u, err := url.Parse(srv.DSN())
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// applyFunc applies one change, by a guard mode or a lock-free method.
type applyFunc func(ctx context.Context, ch Change) (ledger.Outcome, int, error)

func guarded(r *Resource, mode Mode) applyFunc {
	return func(ctx context.Context, ch Change) (ledger.Outcome, int, error) {
		out, err := r.Apply(ctx, mode, ch)
		return out, 0, err
	}
}

func lockFree(r *Resource, m LockFree) applyFunc {
	return func(ctx context.Context, ch Change) (ledger.Outcome, int, error) { return r.ApplyLockFree(ctx, m, ch) }
}

// pausedApply runs ch by apply with its client paused in Between, waits until it is
// there, runs during (the other client's writes), lets it go and returns its outcome.
func pausedApply(t *testing.T, ctx context.Context, how any, apply applyFunc, ch Change, during func()) accounttest.Result {
	t.Helper()
	return accounttest.PausedChange(t, how, ch.Client, func(between func(context.Context) error) (ledger.Outcome, int, error) {
		ch.Between = between
		return apply(ctx, ch)
	}, during)
}

func paused(t *testing.T, ctx context.Context, r *Resource, mode Mode, ch Change, during func()) accounttest.Result {
	t.Helper()
	return pausedApply(t, ctx, mode, guarded(r, mode), ch, during)
}

// staleRace makes the stale holder's race in mode on a fresh one-account resource:
// stale (token 1, taking 10) pauses before its write while fresh (token 2, taking 30)
// applies its change. It returns the stale change's result, and the resource to audit.
func staleRace(t *testing.T, mode Mode, stale, fresh string) (*Resource, context.Context, accounttest.Result) {
	t.Helper()
	r, ctx := open(t, 1), accounttest.Ctx(t)
	res := paused(t, ctx, r, mode, Change{Client: stale, Account: 1, Token: 1, Amount: 10}, func() {
		mustApply(t, ctx, r, mode, Change{Client: fresh, Account: 1, Token: 2, Amount: 30}, ledger.Applied)
	})
	return r, ctx, res
}

func mustApply(t *testing.T, ctx context.Context, r *Resource, mode Mode, ch Change, want ledger.Outcome) {
	t.Helper()
	out, err := r.Apply(ctx, mode, ch)
	if err != nil || out != want {
		t.Fatalf("%s by %s: got %v, %v; want %v", mode, ch.Client, out, err, want)
	}
}

func audit(t *testing.T, ctx context.Context, r *Resource) Audit {
	t.Helper()
	return accounttest.Audit(t, ctx, r.Audit)
}

// Two clients read-modify-write: the first reads, pauses, the second reads and writes,
// the first writes its stale computation over it. Exactly one update is lost.
func TestReadModifyWriteLosesOneUpdate(t *testing.T) {
	t.Parallel()
	r, ctx, res := staleRace(t, Mode{Guard: ReadModifyWrite}, "a", "b")
	if res.Err != nil || res.Out != ledger.Applied {
		t.Fatalf("a: %v %v", res.Out, res.Err)
	}
	a := audit(t, ctx, r)
	if a.Applied != 2 || a.LostUpdates != 1 || a.LostAmount != 30 || a.Balance != initial-10 || a.Expected != initial-40 {
		t.Fatalf("want 2 applied, 1 lost (b's 30), balance %d: %+v", initial-10, a)
	}
}

// The same history, fenced: the paused holder's write carries the older token and the
// database refuses it; nothing is lost.
func TestFencedRefusesStaleHolder(t *testing.T) {
	t.Parallel()
	r, ctx, res := staleRace(t, Mode{Guard: Fenced}, "a", "b")
	if res.Err != nil || res.Out != ledger.Refused {
		t.Fatalf("a: %v %v; want refused", res.Out, res.Err)
	}
	a := audit(t, ctx, r)
	if a.Applied != 1 || a.Refused != 1 || a.LostUpdates != 0 || a.LostAmount != 0 || a.Balance != initial-30 {
		t.Fatalf("want 1 applied, 1 refused, 0 lost: %+v", a)
	}
	if acc := a.Accounts[0]; acc.Fence != 2 || acc.FenceBehind {
		t.Fatalf("fence %d behind %v; want 2, not behind", acc.Fence, acc.FenceBehind)
	}
}

// Check-then-write: the stale holder checks (its token is newer than the row's fence),
// pauses, the new holder checks and writes, then the stale write lands over it: one
// update lost and the fence set back.
func TestCheckThenWriteStaleWriteLands(t *testing.T) {
	t.Parallel()
	mode := Mode{Guard: CheckThenWrite}
	r, ctx, res := staleRace(t, mode, "stale", "new")
	if res.Err != nil || res.Out != ledger.Applied {
		t.Fatalf("stale: %v %v; want applied (the race)", res.Out, res.Err)
	}
	a := audit(t, ctx, r)
	if a.Applied != 2 || a.LostUpdates != 1 || a.LostAmount != 30 {
		t.Fatalf("want 2 applied, 1 lost: %+v", a)
	}
	if acc := a.Accounts[0]; acc.Fence != 1 || !acc.FenceBehind || acc.HighestToken != 2 {
		t.Fatalf("fence %d highest %d behind %v; want 1, 2, behind", acc.Fence, acc.HighestToken, acc.FenceBehind)
	}
	// Without the pause the client's check does refuse: the next stale attempt sees fence 1.
	mustApply(t, ctx, r, mode, Change{Client: "stale", Account: 1, Token: 1, Amount: 10}, ledger.Refused)
}

// Outbox + fenced: the stale holder sends its side effect, pauses, the new holder
// writes; the fence refuses the stale write, but its side effect was sent.
func TestOutboxFencedLeaksSideEffect(t *testing.T) {
	t.Parallel()
	r, ctx, res := staleRace(t, Mode{Guard: Fenced, Outbox: true}, "stale", "new")
	if res.Err != nil || res.Out != ledger.Refused {
		t.Fatalf("stale: %v %v; want refused", res.Out, res.Err)
	}
	a := audit(t, ctx, r)
	if a.Applied != 1 || a.Refused != 1 || a.LostUpdates != 0 || a.LostAmount != 0 {
		t.Fatalf("want 1 applied, 1 refused, 0 lost: %+v", a)
	}
	if a.SideEffects != 2 || a.RefusedSideEffects != 1 || a.UnappliedSideEffects != 1 {
		t.Fatalf("want 2 side effects, 1 from the refused write: %+v", a)
	}
}

// Unfenced decrements from concurrent clients, no lock: the one statement is atomic in
// the database, so nothing is lost.
func TestUnfencedConcurrentDecrementsLoseNothing(t *testing.T) {
	t.Parallel()
	const clients, each = 8, 25
	r, ctx := open(t, 1), accounttest.Ctx(t)
	apply := guarded(r, Mode{Guard: Unfenced})
	errs, _ := accounttest.Concurrently(clients, each, func(client string) (ledger.Outcome, int, error) {
		return apply(ctx, Change{Client: client, Account: 1, Amount: 1})
	})
	if len(errs) > 0 {
		t.Fatalf("unfenced write: %v", errs)
	}
	a := audit(t, ctx, r)
	if a.Applied != clients*each || a.LostUpdates != 0 || a.LostAmount != 0 || a.Balance != initial-clients*each {
		t.Fatalf("want %d applied, 0 lost: %+v", clients*each, a)
	}
}

// Every mode writes, audits clean alone, and Open resets the rows and the outbox.
func TestEveryModeAloneAndReset(t *testing.T) {
	t.Parallel()
	dsn, ctx := ownDatabase(t), accounttest.Ctx(t)
	for _, m := range Modes() {
		r, err := Open(ctx, dsn, 2, initial)
		if err != nil {
			t.Fatal(err)
		}
		mustApply(t, ctx, r, m, Change{Client: "a", Account: 2, Token: 5, Amount: 7}, ledger.Applied)
		mustApply(t, ctx, r, m, Change{Client: "a", Account: 2, Token: 6, Amount: 3}, ledger.Applied)
		a, err := r.Audit(ctx)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		wantSide := 0
		if m.Outbox {
			wantSide = 2
		}
		if a.Intended != 2 || a.Applied != 2 || a.LostUpdates != 0 || a.Balance != 2*initial-10 ||
			a.Accounts[0].Balance != initial || a.SideEffects != wantSide || a.UnappliedSideEffects != 0 {
			t.Fatalf("%s: %+v", m, a)
		}
	}
}

func TestParseMode(t *testing.T) {
	t.Parallel()
	for _, name := range ModeNames() {
		m, err := ParseMode(name)
		if err != nil || m.String() != name {
			t.Fatalf("ParseMode(%q) = %v, %v", name, m, err)
		}
	}
	if len(ModeNames()) != 8 {
		t.Fatalf("modes: %v", ModeNames())
	}
	for _, bad := range []string{"fencd", "", "outbox", "fenced+outbox+outbox"} {
		if _, err := ParseMode(bad); err == nil || !strings.Contains(err.Error(), `"`+bad+`"`) {
			t.Fatalf("ParseMode(%q): err %v; want one naming it", bad, err)
		}
	}
	// A mode built by hand outside the set is refused by Apply before any write.
	r := &Resource{accounts: 1}
	if _, err := r.Apply(context.Background(), Mode{Guard: "optimistic"}, Change{Account: 1}); err == nil || !strings.Contains(err.Error(), `"optimistic"`) {
		t.Fatalf("Apply with a bad mode: %v", err)
	}
	if len(r.Log()) != 0 {
		t.Fatal("a refused mode was logged as an intended change")
	}
}
