package etcdlock_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/etcdlock"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/etcdtopo"
)

func startStrategy(t *testing.T, name string) (locks.Locker, *etcdtopo.Cluster) {
	t.Helper()
	spec, err := locks.TopologyFor(name)
	if err != nil {
		t.Fatal(err)
	}
	topo := testenv.Start(t, spec)
	l, err := locks.ForTopology(context.Background(), name, topo, locks.Options{})
	if err != nil {
		t.Fatalf("%s locker: %v", name, err)
	}
	t.Cleanup(func() { l.Close() })
	return l, topo.(*etcdtopo.Cluster)
}

// acquireEventually retries one attempt at a time until granted; other errors (an
// election in progress) are retried too when tolerateErrors.
func acquireEventually(ctx context.Context, t *testing.T, l locks.Locker, key string, ttl time.Duration, tolerateErrors bool) locks.Lease {
	var last error
	for {
		lease, err := l.Acquire(ctx, key, ttl)
		if err == nil {
			return lease
		}
		if !errors.Is(err, locks.ErrNotAcquired) && !tolerateErrors {
			t.Errorf("acquire %s: %v", key, err)
			return locks.Lease{}
		}
		last = err
		select {
		case <-ctx.Done():
			t.Errorf("acquire %s: gave up: %v (last: %v)", key, ctx.Err(), last)
			return locks.Lease{}
		case <-time.After(time.Millisecond):
		}
	}
}

// lostUpdateCounter loses increments when two holders run increment at once.
type lostUpdateCounter struct{ v atomic.Int64 }

func (c *lostUpdateCounter) increment() {
	v := c.v.Load()
	time.Sleep(50 * time.Microsecond)
	c.v.Store(v + 1)
}

func countUnderLock(t *testing.T, l locks.Locker, workers, increments int) int64 {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var counter lostUpdateCounter
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < increments; i++ {
				lease := acquireEventually(ctx, t, l, "counter", 10*time.Second, false)
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

func TestEtcdStrategies(t *testing.T) {
	for _, name := range []string{"etcd", "etcd-3"} {
		t.Run(name, func(t *testing.T) {
			l, _ := startStrategy(t, name)
			ctx := context.Background()

			t.Run("mutual exclusion keeps a racy counter exact", func(t *testing.T) {
				const workers, increments = 8, 15
				if got := countUnderLock(t, l, workers, increments); got != workers*increments {
					t.Errorf("counter = %d, want %d: two holders at once", got, workers*increments)
				}
			})

			t.Run("another owner's token cannot release or extend", func(t *testing.T) {
				lease, err := l.Acquire(ctx, "owned", 10*time.Second)
				if err != nil {
					t.Fatal(err)
				}
				if !lease.HasFence || lease.Fence <= 0 {
					t.Errorf("lease has no fence: %+v", lease)
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
				extended, err := l.Extend(ctx, lease, 10*time.Second)
				if err != nil {
					t.Errorf("owner's extend: %v", err)
				} else if !extended.ValidUntil.After(lease.ValidUntil) {
					t.Errorf("extend did not move ValidUntil: %v then %v", lease.ValidUntil, extended.ValidUntil)
				}
				if err := l.Release(ctx, lease); err != nil {
					t.Errorf("owner's release: %v", err)
				}
				if err := l.Release(ctx, lease); !errors.Is(err, locks.ErrNotHeld) {
					t.Errorf("second release: %v, want ErrNotHeld", err)
				}
				if _, err := l.Extend(ctx, lease, 10*time.Second); !errors.Is(err, locks.ErrNotHeld) {
					t.Errorf("extend after release: %v, want ErrNotHeld", err)
				}
			})

			t.Run("an expired TTL frees the lock and the next fence is larger", func(t *testing.T) {
				first, err := l.Acquire(ctx, "expiring", time.Second)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := l.Acquire(ctx, "expiring", time.Second); !errors.Is(err, locks.ErrNotAcquired) {
					t.Fatalf("second acquire before expiry: %v, want ErrNotAcquired", err)
				}
				waitCtx, cancel := context.WithTimeout(ctx, 20*time.Second)
				defer cancel()
				next := acquireEventually(waitCtx, t, l, "expiring", time.Second, false)
				if next.Token != "" && next.Fence <= first.Fence {
					t.Errorf("fence after expiry %d, not above the expired holder's %d", next.Fence, first.Fence)
				}
				if err := l.Release(ctx, first); !errors.Is(err, locks.ErrNotHeld) {
					t.Errorf("release by the expired holder: %v, want ErrNotHeld", err)
				}
			})

			t.Run("bad ttl is refused", func(t *testing.T) {
				if _, err := l.Acquire(ctx, "k", 0); err == nil {
					t.Error("acquire with ttl 0 succeeded")
				}
				if _, err := l.Acquire(ctx, "k", -time.Second); err == nil {
					t.Error("acquire with a negative ttl succeeded")
				}
			})
		})
	}
}

func TestValidUntilReportsWholeSecondsRoundedUp(t *testing.T) {
	l, _ := startStrategy(t, "etcd-unsafe-nofsync")
	lease, err := l.Acquire(context.Background(), "rounded", 2500*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if got := lease.ValidUntil.Sub(lease.Start); got != 3*time.Second {
		t.Errorf("ttl 2.5s granted %v, want 3s", got)
	}
}

// TestFencesIncreaseAcrossLeaderKill kills the leader of a three-member cluster in the
// middle of a run of acquisitions: every granted fence must exceed the one before.
func TestFencesIncreaseAcrossLeaderKill(t *testing.T) {
	l, cluster := startStrategy(t, "etcd-3")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var fences []int64
	cycle := func() {
		lease := acquireEventually(ctx, t, l, "fenced", 10*time.Second, true)
		if lease.Token == "" {
			t.FailNow()
		}
		fences = append(fences, lease.Fence)
		for {
			err := l.Release(ctx, lease)
			if err == nil || errors.Is(err, locks.ErrNotHeld) || ctx.Err() != nil {
				return
			}
		}
	}
	for i := 0; i < 10; i++ {
		cycle()
	}
	leader, err := cluster.WaitLeader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := leader.Kill(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		cycle()
	}
	next, err := cluster.WaitLeader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if next.Name() == leader.Name() {
		t.Fatalf("leadership did not change: %s still leads", next.Name())
	}
	if err := leader.Restart(ctx, topologies.RestartFromDisk); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		cycle()
	}
	if bad := firstNonIncreasing(fences); bad >= 0 {
		t.Errorf("fence %d at grant %d does not exceed %d before it: %v", fences[bad], bad, fences[bad-1], fences)
	}
}

// firstNonIncreasing returns the index of the first value not above its predecessor, or -1.
func firstNonIncreasing(v []int64) int {
	for i := 1; i < len(v); i++ {
		if v[i] <= v[i-1] {
			return i
		}
	}
	return -1
}

func TestFirstNonIncreasingSeesARegression(t *testing.T) {
	if got := firstNonIncreasing([]int64{3, 5, 9, 9}); got != 3 {
		t.Errorf("repeat: %d, want 3", got)
	}
	if got := firstNonIncreasing([]int64{3, 5, 4}); got != 2 {
		t.Errorf("regression: %d, want 2", got)
	}
	if got := firstNonIncreasing([]int64{3, 5, 9}); got != -1 {
		t.Errorf("increasing: %d, want -1", got)
	}
}

// TestLostDiskRegressesFences is the counterpart the fence check must catch: a lone
// member restarted without its disk starts its revisions again.
func TestLostDiskRegressesFences(t *testing.T) {
	l, cluster := startStrategy(t, "etcd-unsafe-nofsync")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var fences []int64
	for i := 0; i < 5; i++ {
		lease := acquireEventually(ctx, t, l, "fenced", 10*time.Second, true)
		fences = append(fences, lease.Fence)
		l.Release(ctx, lease)
	}
	if err := cluster.Nodes()[0].Restart(ctx, topologies.RestartEmpty); err != nil {
		t.Fatal(err)
	}
	lease := acquireEventually(ctx, t, l, "fenced", 10*time.Second, true)
	fences = append(fences, lease.Fence)
	if firstNonIncreasing(fences) < 0 {
		t.Errorf("fences still increase after the only member lost its disk: %v", fences)
	}
}

func TestVariantsRegistered(t *testing.T) {
	for _, v := range etcdlock.Variants {
		spec, err := locks.TopologyFor(v.Name)
		if err != nil {
			t.Fatal(err)
		}
		if spec.Kind != topologies.Etcd || spec.Members != v.Members || spec.UnsafeNoFsync != v.UnsafeNoFsync {
			t.Errorf("%s runs on %+v", v.Name, spec)
		}
	}
}

// noLock grants every attempt: the control that shows the counter can see two holders.
type noLock struct{ locks.Locker }

func (noLock) Acquire(_ context.Context, key string, _ time.Duration) (locks.Lease, error) {
	return locks.Lease{Key: key, Token: "t"}, nil
}
func (noLock) Release(context.Context, locks.Lease) error { return nil }

func TestCounterDetectsMissingMutualExclusion(t *testing.T) {
	const workers, increments = 8, 15
	if got := countUnderLock(t, noLock{}, workers, increments); got == workers*increments {
		t.Errorf("counter = %d with no lock at all: the check cannot see two holders", got)
	}
}

// An attempt cut short by its caller's context must not leave the key locked: the
// cleanup runs on its own context, or the key stays taken for a whole lease.
func TestCancelledAttemptLeavesNoLock(t *testing.T) {
	l, _ := startStrategy(t, "etcd-unsafe-nofsync")
	background := context.Background()
	cut := 0
	for i := 0; i < 60; i++ {
		key := "cancelled-" + time.Duration(i).String()
		ctx, cancel := context.WithTimeout(background, time.Duration(100+i*50)*time.Microsecond)
		lease, err := l.Acquire(ctx, key, 10*time.Second)
		cancel()
		if err == nil {
			if err := l.Release(background, lease); err != nil {
				t.Fatalf("release: %v", err)
			}
		} else {
			cut++
		}
		next, err := l.Acquire(background, key, 10*time.Second)
		if err != nil {
			t.Fatalf("attempt %d (first attempt: cut short after %v): next acquire: %v", i, time.Duration(100+i*50)*time.Microsecond, err)
		}
		if err := l.Release(background, next); err != nil {
			t.Fatalf("release: %v", err)
		}
	}
	if cut == 0 {
		t.Error("no attempt was cut short: the test exercised nothing")
	}
	t.Logf("%d of 60 attempts cut short by their context", cut)
}
