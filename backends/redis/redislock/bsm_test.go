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
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// plainClient reads the server as any client would, past the locker and its hook.
func plainClient(t *testing.T, topo topologies.Topology) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: topo.Masters()[0].Addr(), Protocol: 2, DisableIdentity: true})
	t.Cleanup(func() { c.Close() })
	return c
}

// The library's answers reach the house's errors, and the key holds the lease's token.
func TestBSMMapsTheLibrarysAnswers(t *testing.T) {
	l, topo := lockstest.SharedStrategy(t, "bsm-redislock", locks.Options{})
	server := plainClient(t, topo)
	ctx := context.Background()

	t.Run("the key holds the lease's token", func(t *testing.T) {
		key := testenv.Key(t, "token")
		lease := acquireBSM(t, l, key)
		if got, err := server.Get(ctx, key).Result(); err != nil || got != lease.Token {
			t.Errorf("GET %s = %q, %v; want the lease's token %q", key, got, err, lease.Token)
		}
	})

	t.Run("a held key is not acquired", func(t *testing.T) {
		key := testenv.Key(t, "held")
		acquireBSM(t, l, key)
		if _, err := l.Acquire(ctx, key, time.Minute); !errors.Is(err, locks.ErrNotAcquired) {
			t.Errorf("acquire of a held key: %v, want ErrNotAcquired", err)
		}
	})

	t.Run("a foreign token's release is not held and frees nothing", func(t *testing.T) {
		key := testenv.Key(t, "foreign")
		lease := releaseWithAForeignToken(t, l, key)
		if got, _ := server.Get(ctx, key).Result(); got != lease.Token {
			t.Errorf("after a foreign release the key holds %q, want the owner's %q", got, lease.Token)
		}
	})

	t.Run("the library's not-held answers are not held", func(t *testing.T) {
		released, extended := acquireBSM(t, l, testenv.Key(t, "r")), acquireBSM(t, l, testenv.Key(t, "e"))
		for _, lease := range []locks.Lease{released, extended} {
			if err := server.Set(ctx, lease.Key, "another-owner", time.Minute).Err(); err != nil {
				t.Fatal(err)
			}
		}
		if err := l.Release(ctx, released); !notHeldByTheLibrary(err) {
			t.Errorf("release of a key another owner took: %v, want ErrNotHeld from the library", err)
		}
		if _, err := l.Extend(ctx, extended, time.Minute); !notHeldByTheLibrary(err) {
			t.Errorf("extend of a key another owner took: %v, want ErrNotHeld from the library", err)
		}
		if got, _ := server.Get(ctx, released.Key).Result(); got != "another-owner" {
			t.Errorf("the other owner's key holds %q after the refused release", got)
		}
	})

	t.Run("a sub-millisecond ttl is refused", func(t *testing.T) {
		if _, err := l.Acquire(ctx, testenv.Key(t, "k"), time.Microsecond); err == nil {
			t.Error("acquire with a 1us ttl succeeded: the library would send PX 0")
		}
	})

	t.Run("a cut-off attempt leaves no lock", func(t *testing.T) {
		key := testenv.Key(t, "cut")
		acquireOnAnEndedContext(t, l, key)
		if err := server.Get(ctx, key).Err(); err != redis.Nil {
			t.Errorf("GET after a cut-off attempt: %v, want no key", err)
		}
	})
}

// notHeldByTheLibrary: ErrNotHeld wrapping the library's own message (it answered, not the adapter).
func notHeldByTheLibrary(err error) bool {
	return errors.Is(err, locks.ErrNotHeld) && strings.Contains(err.Error(), "redislock:")
}

// acquireBSM takes key for a minute, released when the test ends.
func acquireBSM(t *testing.T, l locks.Locker, key string) locks.Lease {
	t.Helper()
	lease, err := l.Acquire(context.Background(), key, time.Minute)
	if err != nil {
		t.Fatalf("acquire %s: %v", key, err)
	}
	t.Cleanup(func() { _ = l.Release(context.Background(), lease) })
	return lease
}

// acquireOnAnEndedContext tries key with a context already cut off, which must fail.
func acquireOnAnEndedContext(t *testing.T, l locks.Locker, key string) {
	t.Helper()
	cut, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.Acquire(cut, key, time.Minute); err == nil {
		t.Fatal("acquire on an ended context succeeded")
	}
}

// releaseWithAForeignToken acquires key and releases it with another token, which
// must be refused as not held; it returns the lease, still held.
func releaseWithAForeignToken(t *testing.T, l locks.Locker, key string) locks.Lease {
	t.Helper()
	lease := acquireBSM(t, l, key)
	foreign := lease
	foreign.Token = locks.NewToken()
	if err := l.Release(context.Background(), foreign); !errors.Is(err, locks.ErrNotHeld) {
		t.Errorf("release with a foreign token: %v, want ErrNotHeld", err)
	}
	return lease
}

// bsm-redislock waits as its library does by default: not at all.
func TestBSMWaitsNotAtAllByDefault(t *testing.T) {
	l, _ := lockstest.SharedStrategy(t, "bsm-redislock", locks.Options{})
	key := testenv.Key(t, "held")
	acquireBSM(t, l, key)
	_, err := l.(locks.Waiter).AcquireWaiting(context.Background(), key, time.Minute)
	if !errors.Is(err, locks.ErrNotAcquired) || !strings.Contains(err.Error(), "redislock: not obtained") {
		t.Errorf("AcquireWaiting on a held key: %v, want the library's one refusal", err)
	}
}

// The backoff variants wait for the holder (another locker: another client).
func TestBSMBackoffsWaitForTheHolder(t *testing.T) {
	for _, name := range []string{"bsm-redislock-linear", "bsm-redislock-exp"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, topo := lockstest.SharedStrategy(t, name, locks.Options{})
			lockstest.WaiterConformance(t, lockstest.WaiterSetup{New: newRedisWaiter(name, topo, locks.Options{}),
				Expiring: 300 * time.Millisecond})
		})
	}
}

// Without a deadline on ctx, the library stops retrying at the TTL: a refusal, and the
// holder's key is left alone.
func TestBSMBackoffGivesUpAtTheTTL(t *testing.T) {
	l, topo := lockstest.SharedStrategy(t, "bsm-redislock-linear", locks.Options{})
	key := testenv.Key(t, "held")
	held := acquireBSM(t, l, key)
	_, err := l.(locks.Waiter).AcquireWaiting(context.Background(), key, 300*time.Millisecond)
	if !errors.Is(err, locks.ErrNotAcquired) || !strings.Contains(err.Error(), "gave up") {
		t.Errorf("AcquireWaiting past its TTL: %v, want ErrNotAcquired saying it gave up", err)
	}
	if got, _ := plainClient(t, topo).Get(context.Background(), key).Result(); got != held.Token {
		t.Errorf("after the give-up the key holds %q, want the holder's %q", got, held.Token)
	}
}
