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

// advisoryQueued counts the sessions waiting for the key's advisory lock: the bigint
// lock is classid (high 32 bits) and objid (low 32 bits), objsubid 1.
const advisoryQueued = `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
	AND classid = (($1::bigint >> 32) & 4294967295)::oid AND objid = ($1::bigint & 4294967295)::oid AND objsubid = 1`

// forUpdateQueued counts the sessions blocked in the row-lock wait: a row lock has no
// key in pg_locks, but no other test of the package blocks on one.
const forUpdateQueued = `SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query = $1`

// TestPostgresWaiters: both strategies block in the server's queue, which grants in
// arrival order.
func TestPostgresWaiters(t *testing.T) {
	for _, name := range strategies {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, topo := lockstest.SharedStrategy(t, name, locks.Options{})
			lockstest.WaiterConformance(t, lockstest.WaiterSetup{
				New:    newWaiter(name, topo),
				Queued: queued(t, name, topo),
				FIFO:   true,
			})
		})
	}
}

func newWaiter(name string, topo topologies.Topology) func(t *testing.T) locks.Waiter {
	return func(t *testing.T) locks.Waiter { return newLocker(t, name, topo).(locks.Waiter) }
}

func queued(t *testing.T, name string, topo topologies.Topology) func(ctx context.Context, key string) (int, error) {
	admin, err := pgx.Connect(context.Background(), topo.(*pgtopo.Server).DSN())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close(context.Background()) })
	return func(ctx context.Context, key string) (int, error) {
		var n int
		if name == pglock.Advisory {
			err = admin.QueryRow(ctx, advisoryQueued, pglock.LockID(key)).Scan(&n)
		} else {
			err = admin.QueryRow(ctx, forUpdateQueued, pglock.LockWaiting).Scan(&n)
		}
		return n, err
	}
}

// TestWaitedLeaseRunsTTLFromItsGrant: there is no server TTL to wait out, and the
// locker's own deadline starts at the grant, not at the wait's start.
func TestWaitedLeaseRunsTTLFromItsGrant(t *testing.T) {
	const name, ttl = pglock.Advisory, 300 * time.Millisecond
	holder, topo := lockstest.SharedStrategy(t, name, locks.Options{})
	waiter, count := newWaiter(name, topo)(t), queued(t, name, topo)
	ctx := context.Background()
	key := testenv.Key(t, "long")
	held, err := holder.Acquire(ctx, key, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	granted := lockstest.Queue(t, waiter, key, ttl, count)
	time.Sleep(2 * ttl) // the scenario: a wait longer than the ttl
	releasing := time.Now()
	if err := holder.Release(ctx, held); err != nil {
		t.Fatal(err)
	}
	lease := <-granted
	if lease.ValidUntil.Before(releasing.Add(ttl)) {
		t.Errorf("lease valid until %v, not %v after the release at %v", lease.ValidUntil, ttl, releasing)
	}
	if lease.Fence <= held.Fence {
		t.Errorf("waiter's fence %d not above the holder's %d", lease.Fence, held.Fence)
	}
	waiter.Release(ctx, lease) // may have lapsed already: the ttl is short
}

// TestGrantRacingTheCutOffIsGivenBack: a wait granted just as its ctx ended returns
// the ctx's error and leaves the key free for the next owner's one attempt.
func TestGrantRacingTheCutOffIsGivenBack(t *testing.T) {
	for _, name := range strategies {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w, topo := lockstest.SharedStrategy(t, name, locks.Options{})
			key := testenv.Key(t, "raced")
			ctx, cutOff := context.WithCancel(context.Background())
			pglock.AfterGrant(w, cutOff)
			if lease, err := w.(locks.Waiter).AcquireWaiting(ctx, key, time.Minute); !errors.Is(err, context.Canceled) {
				t.Fatalf("wait cut off as it was granted: lease %+v, error %v; want context.Canceled", lease, err)
			}
			next := newLocker(t, name, topo)
			lease, err := next.Acquire(context.Background(), key, time.Minute)
			if err != nil {
				t.Fatalf("next owner after the raced wait: %v", err)
			}
			next.Release(context.Background(), lease)
		})
	}
}
