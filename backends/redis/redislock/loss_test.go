package redislock_test

import (
	"context"
	"testing"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/lockstest"
	"github.com/lockbench/lockbench/locks/rueidislayout"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// TestRueidisTellsTheHolderItsKeyIsGone: a holder whose key was deleted on the server
// is told, before its lease's own end: at once through the invalidation with
// client-side caching, at the watchdog's next extension (every 2.5 s) without. The
// delay is logged (go test -v), not asserted.
func TestRueidisTellsTheHolderItsKeyIsGone(t *testing.T) {
	for _, name := range rueidisStrategies {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			// One SET may take more than the library's 20 ms bound (TryNextAfter) on a
			// loaded machine: the grant timed out once at load 20.
			l, topo := lockstest.SharedStrategy(t, name, lockstest.PatientOptions())
			ctx, key := context.Background(), testenv.Key(t, "gone")
			lease, err := l.Acquire(ctx, key, time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			lost, ok := l.(locks.LossNotifier).Lost(lease)
			if !ok {
				t.Fatal("a lease just granted is not held")
			}
			deleted := time.Now()
			if n, err := plainClient(t, topo).Del(ctx, rueidislayout.Key(key)).Result(); err != nil || n != 1 {
				t.Fatalf("DEL %s: %d, %v", rueidislayout.Key(key), n, err)
			}
			select {
			case <-lost:
				t.Logf("%s told its holder %v after the DEL", name, time.Since(deleted))
			case <-time.After(time.Until(lease.ValidUntil)):
				t.Fatal("the holder was not told before its lease's own end")
			}
			if _, ok := l.(locks.LossNotifier).Lost(lease); ok {
				t.Error("a lock the library ended is still held")
			}
		})
	}
}

// TestOnlyRueidisTellsOfALoss: the other libraries' adapters have no way to tell.
func TestOnlyRueidisTellsOfALoss(t *testing.T) {
	for _, name := range []string{"single", "redlock", "bsm-redislock-exp"} {
		l, _ := lockstest.SharedStrategy(t, name, locks.Options{})
		if _, ok := l.(locks.LossNotifier); ok {
			t.Errorf("%s claims to tell a holder of its loss", name)
		}
	}
}
