package pglock_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lockbench/lockbench/backends/postgres/pglock"
	"github.com/lockbench/lockbench/backends/postgres/pgtopo"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/lockstest"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

var strategies = []string{pglock.Advisory, pglock.ForUpdate}

func newLocker(t *testing.T, name string, topo topologies.Topology) locks.Locker {
	return lockstest.NewLocker(t, name, topo, locks.Options{})
}

func TestPostgresStrategies(t *testing.T) { lockstest.ConformanceOf(t, strategies...) }

// TestTwoLockersExcludeEachOther: two lockers on one server (two programs, say) see
// each other's locks, and fences keep increasing from one to the other.
func TestTwoLockersExcludeEachOther(t *testing.T) {
	for _, name := range strategies {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			a, server := lockstest.SharedStrategy(t, name, locks.Options{})
			twoLockersExcludeEachOther(t, name, a, server)
		})
	}
}

func twoLockersExcludeEachOther(t *testing.T, name string, a locks.Locker, server topologies.Topology) {
	b := newLocker(t, name, server)
	ctx := context.Background()
	shared := testenv.Key(t, "shared")
	lease, err := a.Acquire(ctx, shared, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Acquire(ctx, shared, 10*time.Second); !errors.Is(err, locks.ErrNotAcquired) {
		t.Errorf("second locker on a held key: %v, want ErrNotAcquired", err)
	}
	if err := a.Release(ctx, lease); err != nil {
		t.Fatal(err)
	}
	next, err := b.Acquire(ctx, shared, 10*time.Second)
	if err != nil {
		t.Fatalf("second locker after release: %v", err)
	}
	if next.Fence <= lease.Fence {
		t.Errorf("fence %d after %d: not increasing", next.Fence, lease.Fence)
	}
	b.Release(ctx, next)
}

// TestPausedServerFailsAcquireWithAnError: a server that answers nothing is a fault,
// never a refusal.
func TestPausedServerFailsAcquireWithAnError(t *testing.T) {
	lockstest.EachStrategy(t, strategies, func(t *testing.T, name string, l locks.Locker, server *pgtopo.Server) {
		ctx := context.Background()
		// Warm the pool, so that the attempt below reuses a connection whose
		// backend the pause stops, as well as dialling new ones.
		warm, err := l.Acquire(ctx, "paused", time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Release(ctx, warm); err != nil {
			t.Fatal(err)
		}
		resume := lockstest.Pause(t, server.Nodes()[0])
		attemptCtx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
		_, err = l.Acquire(attemptCtx, "paused", time.Second)
		cancel()
		if err == nil || errors.Is(err, locks.ErrNotAcquired) {
			t.Fatalf("acquire on a paused server: %v, want an error that is not ErrNotAcquired", err)
		}
		t.Logf("acquire on a paused server: %v", err)
		if err := resume(); err != nil {
			t.Fatal(err)
		}
		waitCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		lease := lockstest.AcquireEventually(waitCtx, t, l, "paused", time.Second, true)
		if lease.Token == "" {
			t.FailNow()
		}
		if err := l.Release(ctx, lease); err != nil {
			t.Errorf("release after resume: %v", err)
		}
	})
}

// TestLostSessionLosesTheLock: a lock lives as long as its session; when the server ends
// it, another owner gets the lock and the holder learns it lost it.
func TestLostSessionLosesTheLock(t *testing.T) {
	lockstest.EachStrategy(t, strategies, func(t *testing.T, name string, l locks.Locker, server *pgtopo.Server) {
		ctx := context.Background()
		lease, err := l.Acquire(ctx, "lost", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		admin, err := pgx.Connect(ctx, server.DSN())
		if err != nil {
			t.Fatal(err)
		}
		defer admin.Close(ctx)
		if _, err := admin.Exec(ctx, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", "lockbench "+name); err != nil {
			t.Fatal(err)
		}
		waitCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		other := newLocker(t, name, server)
		next := lockstest.AcquireEventually(waitCtx, t, other, "lost", time.Minute, false)
		if next.Token == "" {
			t.FailNow()
		}
		if _, err := l.Extend(ctx, lease, time.Minute); !errors.Is(err, locks.ErrNotHeld) {
			t.Errorf("extend by the holder whose session ended: %v, want ErrNotHeld", err)
		}
		if err := l.Release(ctx, lease); err == nil {
			t.Error("release by the holder whose session ended succeeded")
		}
		if err := other.Release(ctx, next); err != nil {
			t.Errorf("new holder's release: %v", err)
		}
	})
}

func acquireFences(ctx context.Context, t *testing.T, l locks.Locker, n int) []int64 {
	t.Helper()
	var fences []int64
	for i := 0; i < n; i++ {
		lease := lockstest.AcquireEventually(ctx, t, l, "fenced", 10*time.Second, true)
		if lease.Token == "" {
			t.FailNow()
		}
		fences = append(fences, lease.Fence)
		for {
			err := l.Release(ctx, lease)
			if err == nil || errors.Is(err, locks.ErrNotHeld) || ctx.Err() != nil {
				break
			}
		}
	}
	return fences
}

// TestFencesIncreaseAcrossCrashes kills the server between grants: the sequence
// resumes above every fence it handed out.
func TestFencesIncreaseAcrossCrashes(t *testing.T) {
	lockstest.EachStrategy(t, strategies, func(t *testing.T, name string, l locks.Locker, server *pgtopo.Server) {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		node := server.Nodes()[0]
		fences := acquireFences(ctx, t, l, 40) // past the sequence's 32-value WAL batch
		for i := 0; i < 2; i++ {
			if err := node.Kill(); err != nil {
				t.Fatal(err)
			}
			if err := node.Restart(ctx, topologies.RestartFromDisk); err != nil {
				t.Fatal(err)
			}
			fences = append(fences, acquireFences(ctx, t, l, 5)...)
		}
		if bad := lockstest.FirstNonIncreasing(fences); bad >= 0 {
			t.Errorf("fence %d at grant %d does not exceed %d before it: %v", fences[bad], bad, fences[bad-1], fences)
		}
	})
}

// TestLostDiskRegressesFences is the counterpart a fence check must catch: a server
// restarted without its data starts its sequence again.
func TestLostDiskRegressesFences(t *testing.T) {
	lockstest.EachStrategy(t, strategies, func(t *testing.T, name string, l locks.Locker, server *pgtopo.Server) {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		fences := acquireFences(ctx, t, l, 3)
		if err := server.Nodes()[0].Restart(ctx, topologies.RestartEmpty); err != nil {
			t.Fatal(err)
		}
		// The locker's schema went with the disk: its next attempt makes it again.
		fences = append(fences, acquireFences(ctx, t, l, 1)...)
		if lockstest.FirstNonIncreasing(fences) < 0 {
			t.Errorf("fences still increase after the server lost its disk: %v", fences)
		}
	})
}

func TestStrategiesRegistered(t *testing.T) {
	for _, name := range strategies {
		spec, err := locks.TopologyFor(name)
		if err != nil {
			t.Fatal(err)
		}
		if spec.Kind != topologies.Postgres {
			t.Errorf("%s runs on %+v, want a postgres topology", name, spec)
		}
	}
}

// TestCorePackagesDoNotImportPgx keeps the driver out of the packages every program and
// plain test builds.
func TestCorePackagesDoNotImportPgx(t *testing.T) {
	core := []string{testenv.Module + "locks", testenv.Module + "topologies", testenv.Module + "bench", testenv.Module + "safety", testenv.Module + "safety/lab", testenv.Module + "backends/store", testenv.Module + "topologies/testenv"}
	if got := testenv.DependsOn(testenv.Deps(t, core...), "github.com/jackc/pgx/v5"); len(got) > 0 {
		t.Errorf("%v depend on pgx: %v", core, got)
	}
	// The same listing must see pgx where it is, or the check above proves nothing.
	if got := testenv.DependsOn(testenv.Deps(t, testenv.Module+"backends/postgres/pglock"), "github.com/jackc/pgx/v5"); len(got) == 0 {
		t.Error("go list -deps ./backends/postgres/pglock shows no pgx package: the check is blind")
	}
}
