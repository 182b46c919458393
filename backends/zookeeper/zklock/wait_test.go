package zklock_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/lockbench/lockbench/backends/zookeeper/zklock"
	"github.com/lockbench/lockbench/backends/zookeeper/zktopo"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/lockstest"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// TestZooKeeperWaiters: the recipe's queue on an ensemble of three, FIFO by sequence.
func TestZooKeeperWaiters(t *testing.T) {
	const name = "zookeeper-3"
	_, topo := lockstest.SharedStrategy(t, name, locks.Options{})
	lockstest.WaiterConformance(t, lockstest.WaiterSetup{
		New:    newWaiter(name, topo),
		Queued: queued(t, topo.(*zktopo.Ensemble)),
		FIFO:   true,
	})
}

func newWaiter(name string, topo topologies.Topology) func(t *testing.T) locks.Waiter {
	return func(t *testing.T) locks.Waiter {
		return lockstest.NewLocker(t, name, topo, locks.Options{}).(locks.Waiter)
	}
}

// silent drops go-zookeeper's connection chatter.
type silent struct{}

func (silent) Printf(string, ...any) {}

// queued counts the waiters behind a key's holder: the contenders' nodes in its dir,
// as of every commit before the call.
func queued(t *testing.T, e *zktopo.Ensemble) func(ctx context.Context, key string) (int, error) {
	conn, _, err := zk.Connect(e.Servers(), 10*time.Second, zk.WithLogger(silent{}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Close)
	return func(_ context.Context, key string) (int, error) {
		dir := zklock.LockDir(key)
		// This session may read from a follower that has not applied a waiter's
		// closed session yet: sync first so the count reflects every commit before it.
		if _, err := conn.Sync(dir); err != nil && !errors.Is(err, zk.ErrNoNode) {
			return 0, err
		}
		children, _, err := conn.Children(dir)
		if errors.Is(err, zk.ErrNoNode) {
			return 0, nil
		}
		return max(len(children)-1, 0), err
	}
}

// TestWaitLongerThanTTLKeepsItsPlace: the client heartbeats a waiter's session while
// its node queues, and the granted lease runs a session timeout from its grant. The
// session is 4 s: at the servers' least (400 ms), at load 20, the server expired it.
func TestWaitLongerThanTTLKeepsItsPlace(t *testing.T) {
	const name = "zookeeper"
	holder, topo := lockstest.SharedStrategy(t, name, locks.Options{})
	e := topo.(*zktopo.Ensemble)
	waiter, count := newWaiter(name, topo)(t), queued(t, e)
	ctx := context.Background()
	key := testenv.Key(t, "long")
	held, err := holder.Acquire(ctx, key, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	ttl := 4 * time.Second
	granted := lockstest.Queue(t, waiter, key, ttl, count)
	time.Sleep(3 * ttl) // the scenario: a wait of three session timeouts
	if n, err := count(ctx, key); err != nil || n != 1 {
		t.Fatalf("after %v, %d waiters queued (%v): the waiter's session expired in the queue", 3*ttl, n, err)
	}
	releasing := time.Now()
	if err := holder.Release(ctx, held); err != nil {
		t.Fatal(err)
	}
	lease := <-granted
	if lease.ValidUntil.Before(releasing.Add(ttl)) {
		t.Errorf("lease valid until %v, not a session timeout %v after the release at %v", lease.ValidUntil, ttl, releasing)
	}
	if lease.Fence <= held.Fence {
		t.Errorf("waiter's fence %d not above the holder's %d", lease.Fence, held.Fence)
	}
	if err := waiter.Release(ctx, lease); err != nil {
		t.Errorf("release: %v", err)
	}
}

// TestWaitTTLBelowMinimumSessionIsRefused, as Acquire refuses it.
func TestWaitTTLBelowMinimumSessionIsRefused(t *testing.T) {
	l, topo := lockstest.SharedStrategy(t, "zookeeper", locks.Options{})
	e := topo.(*zktopo.Ensemble)
	ttl := e.MinSessionTimeout() / 4
	_, err := l.(locks.Waiter).AcquireWaiting(context.Background(), testenv.Key(t, "short"), ttl)
	if err == nil || !strings.Contains(err.Error(), e.MinSessionTimeout().String()) {
		t.Errorf("wait with ttl %v below the minimum session %v: %v", ttl, e.MinSessionTimeout(), err)
	}
}
