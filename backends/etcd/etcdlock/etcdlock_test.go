package etcdlock_test

import (
	"context"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backends/etcd"
	"github.com/lockbench/lockbench/backends/etcd/etcdlock"
	"github.com/lockbench/lockbench/backends/etcd/etcdtopo"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/lockstest"
)

func startStrategy(t *testing.T, name string) (locks.Locker, *etcdtopo.Cluster) {
	return lockstest.StartStrategyAs[*etcdtopo.Cluster](t, name)
}

// The counter's locks last 10 s: at 2 s, at load 24, leases ran out between grant and
// release.
func TestEtcdStrategies(t *testing.T) { lockstest.ConformanceOfAt(t, 10*time.Second, "etcd", "etcd-3") }

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
	lockstest.FencesIncreaseAcrossLeaderKill(t, l, cluster)
}

// TestLostDiskRegressesFences is the counterpart the fence check must catch: a lone
// member restarted without its disk starts its revisions again.
func TestLostDiskRegressesFences(t *testing.T) {
	l, cluster := startStrategy(t, "etcd-unsafe-nofsync")
	lockstest.LostDiskRegressesFences(t, l, cluster.Nodes()[0])
}

func TestVariantsRegistered(t *testing.T) {
	for _, st := range etcdlock.Strategies {
		spec, err := locks.TopologyFor(st.Name)
		if err != nil {
			t.Fatal(err)
		}
		if spec.Kind != etcd.Kind || spec.Members != st.Spec.Members || spec.UnsafeNoFsync != st.Spec.UnsafeNoFsync {
			t.Errorf("%s runs on %+v", st.Name, spec)
		}
	}
}

func TestCounterDetectsMissingMutualExclusion(t *testing.T) {
	const workers, increments = 8, 15
	if got, done := lockstest.CountUnderLock(t, lockstest.NoLock{}, workers, increments); got == done {
		t.Errorf("counter = %d after %d increments with no lock at all: the check cannot see two holders", got, done)
	}
}
