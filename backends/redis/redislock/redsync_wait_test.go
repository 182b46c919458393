package redislock_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/lockstest"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// redsyncTestOptions widen redsync's per-node bound (TTL x 0.05) for a loaded machine,
// as TestEveryStrategyConforms (backends/all) does; tries and delays stay redsync's.
var redsyncTestOptions = locks.Options{Redlock: locks.RedlockOptions{TimeoutFactor: 0.5}}

// redlock's AcquireWaiting is redsync's LockContext: granted after the holder lets go.
func TestRedlockWaitsForTheHolder(t *testing.T) {
	_, topo := lockstest.SharedStrategy(t, "redlock", redsyncTestOptions)
	waiter := newRedisWaiter("redlock", topo, redsyncTestOptions)
	if got := waiter(t).Waiting(); got != "redsync: up to 32 tries, 50-250 ms apart at random, drift 1%" {
		t.Errorf("Waiting() = %q, want redsync's defaults", got)
	}
	lockstest.WaiterConformance(t, lockstest.WaiterSetup{New: waiter, Expiring: 300 * time.Millisecond})
}

// With its tries spent, redsync gives up: a refusal, as one try's is.
func TestRedlockWaitGivesUpAfterItsTries(t *testing.T) {
	opts := redsyncTestOptions
	opts.Redlock.Tries, opts.Redlock.RetryDelay = 2, time.Millisecond
	l, _ := lockstest.SharedStrategy(t, "redlock", opts)
	ctx := context.Background()
	key := testenv.Key(t, "held")
	lease, err := l.Acquire(ctx, key, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release(ctx, lease)
	if got := l.(locks.Waiter).Waiting(); !strings.Contains(got, "2 tries, 1ms apart") {
		t.Errorf("Waiting() = %q, want the options' tries and delay", got)
	}
	if _, err := l.(locks.Waiter).AcquireWaiting(ctx, key, time.Minute); !errors.Is(err, locks.ErrNotAcquired) {
		t.Errorf("AcquireWaiting on a held key after its tries: %v, want ErrNotAcquired", err)
	}
}

// newRedisWaiter gives each call a locker of its own over topo: another client.
func newRedisWaiter(name string, topo topologies.Topology, opts locks.Options) func(t *testing.T) locks.Waiter {
	return func(t *testing.T) locks.Waiter { return lockstest.NewLocker(t, name, topo, opts).(locks.Waiter) }
}
