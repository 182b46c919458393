package redislock_test

import (
	"context"
	"flag"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/lockbench/lockbench/backends/redis/redislock"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/lockstest"
	"github.com/lockbench/lockbench/topologies/testenv"
)

var long = flag.Bool("long", false, "count the caching rueidislock waits the library drops (minutes)")

// rueidisWaitDropped proves that rueidislock (v1.0.80) dropped w's wait on key: the
// library wakes a waiting WithContext through the key's gate, found by name when an
// invalidation arrives, and the gate is gone. A refused try's own goroutine deletes it
// when it reads the try's failure count before the try has counted the failure
// (docs/libraries.md); nothing else removes a gate while its wait is on.
func rueidisWaitDropped(w locks.Waiter, key string) (dropped bool) {
	withRueidisGates(w, false, func(gates reflect.Value) { dropped = gateGone(gates, key) })
	return dropped
}

// gateGone is the proof read off the library's gates, under its lock.
func gateGone(gates reflect.Value, key string) bool {
	return !gates.IsNil() && !gates.MapIndex(reflect.ValueOf(key)).IsValid()
}

// withRueidisGates runs use on the library's map of gates (the pinned version's layout)
// under the library's own lock, held for writing if write.
func withRueidisGates(w locks.Waiter, write bool, use func(gates reflect.Value)) {
	lib := redislock.RueidisLibrary(w)
	if lib == nil {
		panic(fmt.Sprintf("%T is not a rueidislock strategy's locker", w))
	}
	v := reflect.ValueOf(lib).Elem()
	mu := (*sync.RWMutex)(unsafe.Pointer(v.FieldByName("mu").UnsafeAddr()))
	if write {
		mu.Lock()
		defer mu.Unlock()
	} else {
		mu.RLock()
		defer mu.RUnlock()
	}
	field := v.FieldByName("gates")
	use(reflect.NewAt(field.Type(), unsafe.Pointer(field.UnsafeAddr())).Elem())
}

// The measurement behind docs/libraries.md's count: workers each wait, again and again,
// behind a holder whose lock ends after 300 ms; a wait not granted within 10 s must be
// one the library dropped (any other hang fails the test). Run it with the machine busy.
func TestRueidisCachingWaitDrops(t *testing.T) {
	if !*long {
		t.Skip("a measurement: -long")
	}
	const workers, rounds, holding = 6, 400, 300 * time.Millisecond
	opts := lockstest.PatientOptions()
	_, topo := lockstest.SharedStrategy(t, "rueidislock", opts)
	var waits, dropped atomic.Int64
	var wg sync.WaitGroup
	for worker := range workers {
		holder := lockstest.NewLocker(t, "rueidislock", topo, opts)
		waiter := lockstest.NewLocker(t, "rueidislock", topo, opts).(locks.Waiter)
		wg.Go(func() {
			for round := range rounds {
				key := testenv.Key(t, fmt.Sprintf("dropped-%d-%d", worker, round))
				if _, err := holder.Acquire(context.Background(), key, holding); err != nil {
					t.Errorf("holder: %v", err)
					return
				}
				// Judged while the wait is still on: a wait cut off removes its gate too.
				ctx, cancel := context.WithCancel(context.Background())
				var lost atomic.Bool
				judge := time.AfterFunc(10*time.Second, func() {
					lost.Store(rueidisWaitDropped(waiter, key))
					cancel()
				})
				lease, err := waiter.AcquireWaiting(ctx, key, time.Minute)
				judge.Stop()
				cancel()
				waits.Add(1)
				switch {
				case err != nil && lost.Load():
					dropped.Add(1)
				case err != nil:
					t.Errorf("wait on %s: %v, and the library did not drop it", key, err)
					return
				default:
					_ = waiter.Release(context.Background(), lease)
				}
			}
		})
	}
	wg.Wait()
	t.Logf("rueidislock dropped %d of %d waits (%d workers, a holder of %v each)", dropped.Load(), waits.Load(), workers, holding)
}

// The proof holds only for a dropped wait: false while a wait behind a holder is on, true
// once the wait's gate is taken away (by hand here, as the library's race does).
func TestRueidisWaitDroppedProof(t *testing.T) {
	opts := lockstest.PatientOptions()
	_, topo := lockstest.SharedStrategy(t, "rueidislock", opts)
	holder := lockstest.NewLocker(t, "rueidislock", topo, opts)
	waiter := lockstest.NewLocker(t, "rueidislock", topo, opts).(locks.Waiter)
	// The library's own race may drop a wait before its gate is seen (on a busy machine,
	// within one poll): a new key's wait is tried then, up to five.
	for try := range 5 {
		key := testenv.Key(t, fmt.Sprintf("proof-%d", try))
		if _, err := holder.Acquire(context.Background(), key, time.Minute); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		waited := make(chan error, 1)
		go func() {
			_, err := waiter.AcquireWaiting(ctx, key, time.Minute)
			waited <- err
		}()
		// Read in the hold of the library's lock that saw the gate: the library may drop
		// the wait a moment later, and then the proof would be right to say so.
		var seen, takenForDropped bool
		testenv.Poll(t, 10*time.Second, time.Millisecond, func() (bool, error) {
			withRueidisGates(waiter, false, func(gates reflect.Value) {
				seen = gates.MapIndex(reflect.ValueOf(key)).IsValid()
				takenForDropped = seen && gateGone(gates, key)
			})
			return seen, nil
		})
		if !seen {
			cancel()
			<-waited
			continue
		}
		if takenForDropped {
			t.Error("a wait behind a holder is taken for dropped")
		}
		dropRueidisGate(waiter, key)
		if !rueidisWaitDropped(waiter, key) {
			t.Error("a wait whose gate is gone is not taken for dropped")
		}
		cancel()
		if err := <-waited; err == nil {
			t.Error("the cut-off wait was granted")
		}
		return
	}
	t.Fatal("no wait's gate was seen in five tries")
}

// dropRueidisGate deletes key's gate, as the library's race does.
func dropRueidisGate(w locks.Waiter, key string) {
	withRueidisGates(w, true, func(gates reflect.Value) { gates.SetMapIndex(reflect.ValueOf(key), reflect.Value{}) })
}
