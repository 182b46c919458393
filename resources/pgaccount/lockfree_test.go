package pgaccount

import (
	"context"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/resources/accounttest"
	"github.com/lockbench/lockbench/resources/ledger"
)

func pausedLockFree(t *testing.T, ctx context.Context, r *Resource, m LockFree, ch Change, during func()) accounttest.Result {
	t.Helper()
	return pausedApply(t, ctx, m, lockFree(r, m), ch, during)
}

func mustApplyLockFree(t *testing.T, ctx context.Context, r *Resource, m LockFree, ch Change, want ledger.Outcome) int {
	t.Helper()
	out, retries, err := r.ApplyLockFree(ctx, m, ch)
	if err != nil || out != want {
		t.Fatalf("%s by %s: got %v, %v; want %v", m, ch.Client, out, err, want)
	}
	return retries
}

// The read-modify-write race with no lock: a reads, pauses, b applies its whole change,
// a writes. cas-version's write finds the version moved, re-reads and retries: nothing
// is lost. The read-modify-write guard under the same interleaving loses b's update,
// which proves the interleaving happened.
func TestCASVersionRetriesTheRaceReadModifyWriteLoses(t *testing.T) {
	t.Parallel()
	t.Run("cas-version", func(t *testing.T) {
		t.Parallel()
		r, ctx := open(t, 1), accounttest.Ctx(t)
		res := pausedLockFree(t, ctx, r, CASVersion, Change{Client: "a", Account: 1, Amount: 10}, func() {
			if retries := mustApplyLockFree(t, ctx, r, CASVersion, Change{Client: "b", Account: 1, Amount: 30}, ledger.Applied); retries != 0 {
				t.Errorf("b retried %d times with no one between its read and write", retries)
			}
		})
		if res.Err != nil || res.Out != ledger.Applied || res.Retries < 1 {
			t.Fatalf("a: %v %v after %d retries; want applied after >= 1 retry", res.Out, res.Err, res.Retries)
		}
		a := audit(t, ctx, r)
		if a.Applied != 2 || a.LostUpdates != 0 || a.LostAmount != 0 || a.Balance != initial-40 {
			t.Fatalf("want 2 applied, 0 lost, balance %d: %+v", initial-40, a)
		}
	})
	t.Run("read-modify-write", func(t *testing.T) {
		t.Parallel()
		r, ctx := open(t, 1), accounttest.Ctx(t)
		res := paused(t, ctx, r, Mode{Guard: ReadModifyWrite}, Change{Client: "a", Account: 1, Amount: 10}, func() {
			mustApplyLockFree(t, ctx, r, CASVersion, Change{Client: "b", Account: 1, Amount: 30}, ledger.Applied)
		})
		if res.Err != nil || res.Out != ledger.Applied {
			t.Fatalf("a: %v %v", res.Out, res.Err)
		}
		a := audit(t, ctx, r)
		if a.Applied != 2 || a.LostUpdates != 1 || a.LostAmount != 30 || a.Balance != initial-10 {
			t.Fatalf("want 2 applied, 1 lost (b's 30), balance %d: %+v", initial-10, a)
		}
	})
}

// atomic and unique-key (with distinct keys) under the same interleaving: their write
// computes in the database, so b's change between a's hook and a's write is kept.
func TestAtomicAndUniqueKeyKeepTheRace(t *testing.T) {
	t.Parallel()
	for _, m := range []LockFree{Atomic, UniqueKey} {
		t.Run(string(m), func(t *testing.T) {
			t.Parallel()
			r, ctx := open(t, 1), accounttest.Ctx(t)
			res := pausedLockFree(t, ctx, r, m, Change{Client: "a", Account: 1, Amount: 10, IdempotencyKey: "a-1"}, func() {
				mustApplyLockFree(t, ctx, r, m, Change{Client: "b", Account: 1, Amount: 30, IdempotencyKey: "b-1"}, ledger.Applied)
			})
			if res.Err != nil || res.Out != ledger.Applied || res.Retries != 0 {
				t.Fatalf("a: %v %v after %d retries; want applied, no retry", res.Out, res.Err, res.Retries)
			}
			a := audit(t, ctx, r)
			if a.Applied != 2 || a.LostUpdates != 0 || a.LostAmount != 0 || a.Balance != initial-40 || a.Duplicates != 0 {
				t.Fatalf("want 2 applied, 0 lost, balance %d: %+v", initial-40, a)
			}
		})
	}
}

// A redelivered change (the same IdempotencyKey twice): unique-key refuses the second,
// atomic and cas-version apply it again, and Audit counts that duplicate. Neither loses
// an update: the version counts both writes.
func TestRedeliveryOnlyUniqueKeyRefuses(t *testing.T) {
	t.Parallel()
	for _, m := range LockFrees.All() {
		t.Run(string(m), func(t *testing.T) {
			t.Parallel()
			r, ctx := open(t, 1), accounttest.Ctx(t)
			ch := Change{Client: "a", Account: 1, Amount: 10, IdempotencyKey: "order-7"}
			mustApplyLockFree(t, ctx, r, m, ch, ledger.Applied)
			wantSecond, wantApplied, wantDuplicates := ledger.Applied, 2, 1
			if m == UniqueKey {
				wantSecond, wantApplied, wantDuplicates = ledger.Refused, 1, 0
			}
			mustApplyLockFree(t, ctx, r, m, ch, wantSecond)
			a := audit(t, ctx, r)
			if a.Applied != wantApplied || a.Duplicates != wantDuplicates || a.LostUpdates != 0 ||
				a.Balance != initial-10*int64(wantApplied) {
				t.Fatalf("want %d applied, %d duplicates, 0 lost: %+v", wantApplied, wantDuplicates, a)
			}
			if m == UniqueKey && a.Refused != 1 {
				t.Fatalf("want the redelivery refused: %+v", a)
			}
		})
	}
}

// unique-key with the redelivery racing the first delivery: a has recorded the key and
// paused before its write; b, with the same key, waits on a's uncommitted row and, once
// a commits, is refused.
func TestUniqueKeyConcurrentRedeliveryRefused(t *testing.T) {
	t.Parallel()
	r, ctx := open(t, 1), accounttest.Ctx(t)
	ch := Change{Client: "a", Account: 1, Amount: 10, IdempotencyKey: "order-9"}
	second := make(chan accounttest.Result, 1)
	res := pausedLockFree(t, ctx, r, UniqueKey, ch, func() {
		redelivery := ch
		redelivery.Client = "b"
		go func() {
			out, retries, err := r.ApplyLockFree(ctx, UniqueKey, redelivery)
			second <- accounttest.Result{Out: out, Retries: retries, Err: err}
		}()
		waitForLockWait(t, ctx, r, "INSERT INTO applied_change")
	})
	if res.Err != nil || res.Out != ledger.Applied {
		t.Fatalf("a: %v %v; want applied", res.Out, res.Err)
	}
	if b := <-second; b.Err != nil || b.Out != ledger.Refused {
		t.Fatalf("b: %v %v; want refused", b.Out, b.Err)
	}
	a := audit(t, ctx, r)
	if a.Applied != 1 || a.Refused != 1 || a.Duplicates != 0 || a.LostUpdates != 0 || a.Balance != initial-10 {
		t.Fatalf("want 1 applied, 1 refused, no duplicate: %+v", a)
	}
}

// waitForLockWait returns once a backend running a statement starting with prefix
// waits on a lock: the server's own view, not a sleep.
func waitForLockWait(t *testing.T, ctx context.Context, r *Resource, prefix string) {
	t.Helper()
	for {
		var n int
		err := r.pool.QueryRow(ctx,
			"SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1 || '%'", prefix).Scan(&n)
		if err != nil {
			t.Fatalf("waiting for a lock wait on %q: %v", prefix, err)
		}
		if n > 0 {
			return
		}
	}
}

// Concurrent cas-version changes on one hot row: every conflict is retried, none lost.
func TestCASVersionConcurrentLosesNothing(t *testing.T) {
	t.Parallel()
	const clients, each = 8, 50
	r, ctx := open(t, 1), accounttest.Ctx(t)
	errs, retries := accounttest.Concurrently(clients, each, func(client string) (ledger.Outcome, int, error) {
		return r.ApplyLockFree(ctx, CASVersion, Change{Client: client, Account: 1, Amount: 1})
	})
	if len(errs) > 0 {
		t.Fatalf("cas-version: %v", errs)
	}
	a := audit(t, ctx, r)
	t.Logf("%d retries for %d changes", retries, clients*each)
	if a.Applied != clients*each || a.LostUpdates != 0 || a.LostAmount != 0 || a.Balance != initial-clients*each {
		t.Fatalf("want %d applied, 0 lost, balance %d: %+v", clients*each, initial-clients*each, a)
	}
}

// NextFence issues strictly increasing fences, and Open restarts them at 1.
func TestNextFenceIncreasesAndResets(t *testing.T) {
	t.Parallel()
	dsn, ctx := ownDatabase(t), accounttest.Ctx(t)
	for round := 0; round < 2; round++ {
		r, err := Open(ctx, dsn, 1, initial)
		if err != nil {
			t.Fatal(err)
		}
		prev := int64(0)
		for i := 0; i < 20; i++ {
			f, err := r.NextFence(ctx)
			if err != nil {
				r.Close()
				t.Fatal(err)
			}
			if f <= prev || (i == 0 && f != 1) {
				r.Close()
				t.Fatalf("round %d: fence %d after %d; want strictly increasing from 1", round, f, prev)
			}
			prev = f
		}
		r.Close()
	}
}

// Every method writes and audits clean alone, and Open forgets the recorded keys.
func TestEveryLockFreeAloneAndReset(t *testing.T) {
	t.Parallel()
	dsn, ctx := ownDatabase(t), accounttest.Ctx(t)
	for round := 0; round < 2; round++ {
		for _, m := range LockFrees.All() {
			r, err := Open(ctx, dsn, 2, initial)
			if err != nil {
				t.Fatal(err)
			}
			mustApplyLockFree(t, ctx, r, m, Change{Client: "a", Account: 2, Amount: 7, IdempotencyKey: "k1"}, ledger.Applied)
			mustApplyLockFree(t, ctx, r, m, Change{Client: "a", Account: 2, Amount: 3, IdempotencyKey: "k2"}, ledger.Applied)
			a, err := r.Audit(ctx)
			log := r.Log()
			r.Close()
			if err != nil {
				t.Fatal(err)
			}
			if a.Intended != 2 || a.Applied != 2 || a.LostUpdates != 0 || a.Duplicates != 0 || a.Balance != 2*initial-10 ||
				a.Accounts[0].Balance != initial || a.Accounts[1].Version != 2 {
				t.Fatalf("round %d, %s: %+v", round, m, a)
			}
			if e := log[0]; e.LockFree != m || e.Mode != (Mode{}) {
				t.Fatalf("%s logged as lock-free %q, mode %q", m, e.LockFree, e.Mode)
			}
		}
	}
}

func TestParseLockFree(t *testing.T) {
	t.Parallel()
	accounttest.CheckParse(t, LockFrees.All(), LockFrees.Parse, []string{"cas", "", "fenced", "atomic "}, CASVersion)
	// Bad methods and a unique-key change without a key are refused before any write.
	r := &Resource{accounts: 1}
	if _, _, err := r.ApplyLockFree(context.Background(), "optimistic", Change{Account: 1}); err == nil || !strings.Contains(err.Error(), `"optimistic"`) {
		t.Fatalf("ApplyLockFree with a bad method: %v", err)
	}
	if _, _, err := r.ApplyLockFree(context.Background(), UniqueKey, Change{Client: "a", Account: 1}); err == nil ||
		!strings.Contains(err.Error(), "IdempotencyKey") || !strings.Contains(err.Error(), string(UniqueKey)) {
		t.Fatalf("unique-key without a key: %v", err)
	}
	if len(r.Log()) != 0 {
		t.Fatal("a refused change was logged as intended")
	}
}
