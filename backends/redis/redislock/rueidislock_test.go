package redislock_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/lockstest"
	"github.com/lockbench/lockbench/locks/rueidislayout"
	"github.com/lockbench/lockbench/topologies/testenv"
)

var rueidisStrategies = []string{"rueidislock", "rueidislock-nocache"}

// The library's answers reach the house's errors, with and without client-side caching.
func TestRueidisMapsTheLibrarysAnswers(t *testing.T) {
	for _, name := range rueidisStrategies {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			l, topo := lockstest.SharedStrategy(t, name, lockstest.PatientOptions())
			testRueidisAnswers(t, l, plainClient(t, topo))
		})
	}
}

func testRueidisAnswers(t *testing.T, l locks.Locker, server *redis.Client) {
	ctx := context.Background()
	t.Run("a held key is refused with the library's not-locked", func(t *testing.T) {
		key := testenv.Key(t, "held")
		acquireBSM(t, l, key)
		_, err := l.Acquire(ctx, key, time.Minute)
		if !errors.Is(err, locks.ErrNotAcquired) || !strings.Contains(err.Error(), "not locked") {
			t.Errorf("acquire of a held key: %v, want ErrNotAcquired from the library", err)
		}
	})

	t.Run("a foreign token's release is not held and frees nothing", func(t *testing.T) {
		key := testenv.Key(t, "foreign")
		releaseWithAForeignToken(t, l, key)
		if err := server.Get(ctx, rueidislayout.Key(key)).Err(); err != nil {
			t.Errorf("GET %s after a foreign release: %v, want the held key", rueidislayout.Key(key), err)
		}
	})

	t.Run("a lock the library found lost is not held", func(t *testing.T) {
		key := testenv.Key(t, "lost")
		lease := acquireBSM(t, l, key)
		if err := server.Del(ctx, rueidislayout.Key(key)).Err(); err != nil {
			t.Fatal(err)
		}
		// With caching the invalidation tells the library at once, without it the
		// watchdog's next push (2.5 s): poll Extend, which asks the library, until it says so.
		deadline := time.Now().Add(30 * time.Second)
		for {
			_, err := l.Extend(ctx, lease, time.Minute)
			if errors.Is(err, locks.ErrNotHeld) {
				break
			}
			if err != nil || time.Now().After(deadline) {
				t.Fatalf("extend of a deleted lock: %v; the library never said it was lost", err)
			}
			time.Sleep(10 * time.Millisecond)
		}
		if err := l.Release(ctx, lease); !errors.Is(err, locks.ErrNotHeld) {
			t.Errorf("release of a lost lock: %v, want ErrNotHeld", err)
		}
	})

	t.Run("release deletes the key", func(t *testing.T) {
		key := testenv.Key(t, "released")
		lease, err := l.Acquire(ctx, key, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Release(ctx, lease); err != nil {
			t.Fatal(err)
		}
		if err := server.Get(ctx, rueidislayout.Key(key)).Err(); err != redis.Nil {
			t.Errorf("GET after release: %v, want no key", err)
		}
	})

	t.Run("a cut-off attempt leaves no lock", func(t *testing.T) {
		key := testenv.Key(t, "cut")
		acquireOnAnEndedContext(t, l, key)
		if lease, err := l.Acquire(ctx, key, time.Minute); err != nil {
			t.Errorf("acquire after a cut-off attempt: %v", err)
		} else {
			_ = l.Release(ctx, lease)
		}
	})
}

// AcquireWaiting is granted after the holder (another locker: another client) lets go.
func TestRueidisWaitsForTheHolder(t *testing.T) {
	for _, name := range rueidisStrategies {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			opts := lockstest.PatientOptions()
			_, topo := lockstest.SharedStrategy(t, name, opts)
			setup := lockstest.WaiterSetup{New: newRedisWaiter(name, topo, opts), Expiring: 300 * time.Millisecond}
			if name == "rueidislock" {
				// The caching wait can be dropped by the library itself (docs/libraries.md).
				setup.Dropped = rueidisWaitDropped
			}
			lockstest.WaiterConformance(t, setup)
		})
	}
}

// rueidislock's strategies say their library extends held keys on its own; the house's
// and the other libraries' do not.
func TestOnlyRueidislockExtendsItself(t *testing.T) {
	for _, name := range rueidisStrategies {
		if !locks.Has(name, locks.ExtendsItself) {
			t.Errorf("%s: not marked as extending itself", name)
		}
	}
	for _, name := range []string{"single", "redlock", "bsm-redislock", "bsm-redislock-exp"} {
		if locks.Has(name, locks.ExtendsItself) {
			t.Errorf("%s: marked as extending itself", name)
		}
	}
}
