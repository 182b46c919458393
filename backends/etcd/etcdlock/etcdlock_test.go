package etcdlock_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backends/etcd/etcdlock"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/lockstest"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/etcdtopo"
	"github.com/lockbench/lockbench/topologies/testenv"
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

func TestEtcdStrategies(t *testing.T) {
	for _, name := range []string{"etcd", "etcd-3"} {
		t.Run(name, func(t *testing.T) {
			l, _ := startStrategy(t, name)
			lockstest.Conformance(t, l, 8, 15)
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
		lease := lockstest.AcquireEventually(ctx, t, l, "fenced", 10*time.Second, true)
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
	if bad := lockstest.FirstNonIncreasing(fences); bad >= 0 {
		t.Errorf("fence %d at grant %d does not exceed %d before it: %v", fences[bad], bad, fences[bad-1], fences)
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
		lease := lockstest.AcquireEventually(ctx, t, l, "fenced", 10*time.Second, true)
		fences = append(fences, lease.Fence)
		l.Release(ctx, lease)
	}
	if err := cluster.Nodes()[0].Restart(ctx, topologies.RestartEmpty); err != nil {
		t.Fatal(err)
	}
	lease := lockstest.AcquireEventually(ctx, t, l, "fenced", 10*time.Second, true)
	fences = append(fences, lease.Fence)
	if lockstest.FirstNonIncreasing(fences) < 0 {
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

func TestCounterDetectsMissingMutualExclusion(t *testing.T) {
	const workers, increments = 8, 15
	if got := lockstest.CountUnderLock(t, lockstest.NoLock{}, workers, increments); got == workers*increments {
		t.Errorf("counter = %d with no lock at all: the check cannot see two holders", got)
	}
}
