package locks_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
	"github.com/redis/go-redis/v9"
)

// startStrategy starts the strategy's own topology and a locker over it.
func startStrategy(t *testing.T, name string, opts locks.Options) (locks.Locker, topologies.Topology) {
	t.Helper()
	spec, err := locks.TopologyFor(name)
	if err != nil {
		t.Fatal(err)
	}
	topo := testenv.Start(t, spec)
	l, err := locks.ForTopology(context.Background(), name, topo, opts)
	if err != nil {
		t.Fatalf("%s locker: %v", name, err)
	}
	t.Cleanup(func() { l.Close() })
	return l, topo
}

// acquireEventually retries one attempt at a time until it is granted.
func acquireEventually(ctx context.Context, t *testing.T, l locks.Locker, key string, ttl time.Duration) locks.Lease {
	for {
		lease, err := l.Acquire(ctx, key, ttl)
		if err == nil {
			return lease
		}
		if !errors.Is(err, locks.ErrNotAcquired) {
			t.Errorf("acquire %s: %v", key, err)
			return locks.Lease{}
		}
		select {
		case <-ctx.Done():
			t.Errorf("acquire %s: gave up: %v", key, ctx.Err())
			return locks.Lease{}
		case <-time.After(time.Millisecond):
		}
	}
}

// lostUpdateCounter is a counter whose increment is a separate read and write with a
// yield between them: two holders at once lose increments.
type lostUpdateCounter struct{ v atomic.Int64 }

func (c *lostUpdateCounter) increment() {
	v := c.v.Load()
	time.Sleep(50 * time.Microsecond)
	c.v.Store(v + 1)
}

// countUnderLock has workers increment the counter perIncrements times each, each
// increment inside its own lock.
func countUnderLock(t *testing.T, l locks.Locker, workers, increments int) int64 {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var counter lostUpdateCounter
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < increments; i++ {
				lease := acquireEventually(ctx, t, l, "counter", 5*time.Second)
				if lease.Token == "" {
					return
				}
				counter.increment()
				if err := l.Release(ctx, lease); err != nil {
					t.Errorf("release: %v", err)
				}
			}
		}()
	}
	wg.Wait()
	return counter.v.Load()
}

func TestStrategies(t *testing.T) {
	for _, name := range locks.Strategies() {
		t.Run(name, func(t *testing.T) {
			l, topo := startStrategy(t, name, locks.Options{})
			ctx := context.Background()

			t.Run("mutual exclusion keeps a racy counter exact", func(t *testing.T) {
				const workers, increments = 8, 25
				if got := countUnderLock(t, l, workers, increments); got != workers*increments {
					t.Errorf("counter = %d, want %d: two holders at once", got, workers*increments)
				}
			})

			t.Run("another owner's token cannot release or extend", func(t *testing.T) {
				lease, err := l.Acquire(ctx, "owned", 10*time.Second)
				if err != nil {
					t.Fatal(err)
				}
				foreign := lease
				foreign.Token = locks.NewToken()
				if err := l.Release(ctx, foreign); !errors.Is(err, locks.ErrNotHeld) {
					t.Errorf("release with a foreign token: %v, want ErrNotHeld", err)
				}
				if _, err := l.Extend(ctx, foreign, time.Minute); !errors.Is(err, locks.ErrNotHeld) {
					t.Errorf("extend with a foreign token: %v, want ErrNotHeld", err)
				}
				if _, err := l.Acquire(ctx, "owned", time.Second); !errors.Is(err, locks.ErrNotAcquired) {
					t.Errorf("acquire after foreign release: %v, want ErrNotAcquired", err)
				}
				if _, err := l.Extend(ctx, lease, 10*time.Second); err != nil {
					t.Errorf("owner's extend: %v", err)
				}
				if err := l.Release(ctx, lease); err != nil {
					t.Errorf("owner's release: %v", err)
				}
				if err := l.Release(ctx, lease); !errors.Is(err, locks.ErrNotHeld) {
					t.Errorf("second release: %v, want ErrNotHeld", err)
				}
			})

			t.Run("an expired TTL frees the lock", func(t *testing.T) {
				if _, err := l.Acquire(ctx, "expiring", time.Second); err != nil {
					t.Fatal(err)
				}
				if _, err := l.Acquire(ctx, "expiring", time.Second); !errors.Is(err, locks.ErrNotAcquired) {
					t.Fatalf("second acquire before expiry: %v, want ErrNotAcquired", err)
				}
				waitCtx, cancel := context.WithTimeout(ctx, 15*time.Second)
				defer cancel()
				acquireEventually(waitCtx, t, l, "expiring", time.Second)
			})

			t.Run("bad ttl is refused", func(t *testing.T) {
				if _, err := l.Acquire(ctx, "k", 0); err == nil {
					t.Error("acquire with ttl 0 succeeded")
				}
			})
			_ = topo
		})
	}
}

// noLock grants every attempt: the control that shows the counter test can fail.
type noLock struct{ locks.Locker }

func (noLock) Acquire(_ context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	return locks.Lease{Key: key, Token: "t"}, nil
}
func (noLock) Release(context.Context, locks.Lease) error { return nil }

func TestCounterDetectsMissingMutualExclusion(t *testing.T) {
	const workers, increments = 8, 25
	if got := countUnderLock(t, noLock{}, workers, increments); got == workers*increments {
		t.Errorf("counter = %d with no lock at all: the check cannot see two holders", got)
	}
}

func TestWaitFailsWhenReplicasArePaused(t *testing.T) {
	l, topo := startStrategy(t, "wait", locks.Options{Wait: locks.WaitOptions{Replicas: 1, Timeout: 200 * time.Millisecond}})
	ctx := context.Background()
	if lease, err := l.Acquire(ctx, "w", 10*time.Second); err != nil {
		t.Fatalf("acquire with replicas up: %v", err)
	} else if err := l.Release(ctx, lease); err != nil {
		t.Fatal(err)
	}
	for _, r := range topo.Replicas() {
		if err := r.Pause(); err != nil {
			t.Fatal(err)
		}
		defer r.Resume()
	}
	if _, err := l.Acquire(ctx, "w", 10*time.Second); !errors.Is(err, locks.ErrNotReplicated) {
		t.Fatalf("acquire with replicas paused: %v, want ErrNotReplicated", err)
	}
	master := redis.NewClient(&redis.Options{Addr: topo.Masters()[0].Addr()})
	defer master.Close()
	if err := master.Get(ctx, "w").Err(); err != redis.Nil {
		t.Errorf("unreplicated lock left on the master: GET = %v", err)
	}
}

func TestRedlockSurvivesAMinorityAndNotAMajority(t *testing.T) {
	l, topo := startStrategy(t, "redlock", locks.Options{})
	ctx := context.Background()
	nodes := topo.Masters()
	for _, n := range nodes[:2] {
		if err := n.Kill(); err != nil {
			t.Fatal(err)
		}
	}
	lease, err := l.Acquire(ctx, "r", 10*time.Second)
	if err != nil {
		t.Fatalf("acquire with 2 of 5 nodes dead: %v", err)
	}
	if err := l.Release(ctx, lease); err != nil {
		t.Fatalf("release with 2 of 5 nodes dead: %v", err)
	}
	if err := nodes[2].Kill(); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Acquire(ctx, "r", 10*time.Second); err == nil {
		t.Fatal("acquired with 3 of 5 nodes dead")
	}
}

func TestUnknownStrategy(t *testing.T) {
	if _, err := locks.TopologyFor("zookeeper"); err == nil || !strings.Contains(err.Error(), "zookeeper") {
		t.Errorf("unknown strategy error %v does not name it", err)
	}
}
