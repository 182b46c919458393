package zklock_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/zookeeper"
	"github.com/lockbench/lockbench/backends/zookeeper/zklock"
	"github.com/lockbench/lockbench/backends/zookeeper/zktopo"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/lockstest"
	"github.com/lockbench/lockbench/topologies/testenv"
)

func startStrategy(t *testing.T, name string) (locks.Locker, *zktopo.Ensemble) {
	return lockstest.StartStrategyAs[*zktopo.Ensemble](t, name)
}

// startSlowTicking is the strategy on a lone server ticking every 2 s, whose shortest
// session (2 ticks) a loaded machine's stalls do not outlast: at the default tick, 400 ms,
// go-zookeeper closed a session before its first create was answered (load 16).
func startSlowTicking(t *testing.T) (locks.Locker, *zktopo.Ensemble) {
	testenv.RequireServer(t, zookeeper.Kind)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	topo, err := zktopo.Process{TickTime: 2 * time.Second}.Start(ctx, backend.Spec{Kind: zookeeper.Kind})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := topo.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return lockstest.NewLocker(t, "zookeeper", topo, locks.Options{}), topo.(*zktopo.Ensemble)
}

// The lock's TTL is its session's timeout (lockstest.SessionCounterTTL says why 30 s).
func TestZooKeeperStrategies(t *testing.T) {
	lockstest.ConformanceOfAt(t, lockstest.SessionCounterTTL, "zookeeper", "zookeeper-3")
}

func TestVariantsRegistered(t *testing.T) {
	for _, st := range zklock.Strategies {
		spec, err := locks.TopologyFor(st.Name)
		if err != nil {
			t.Fatal(err)
		}
		if spec.Kind != zookeeper.Kind || spec.Members != st.Spec.Members {
			t.Errorf("%s runs on %+v", st.Name, spec)
		}
	}
}

// TestTTLBelowMinimumSessionIsRefused: the server would stretch the session to 2 ticks,
// so the holder would believe in a shorter lease than the one the next owner waits out.
func TestTTLBelowMinimumSessionIsRefused(t *testing.T) {
	l, e := startSlowTicking(t)
	ctx := context.Background()
	ttl := e.MinSessionTimeout() / 4
	for i := 0; i < 2; i++ { // the second refusal comes from what the first learnt
		_, err := l.Acquire(ctx, "short", ttl)
		if err == nil {
			t.Fatalf("acquire with ttl %v below the minimum session %v succeeded", ttl, e.MinSessionTimeout())
		}
		if !strings.Contains(err.Error(), ttl.String()) || !strings.Contains(err.Error(), e.MinSessionTimeout().String()) {
			t.Errorf("refusal %d names not both %v and %v: %v", i, ttl, e.MinSessionTimeout(), err)
		}
	}
	lease, err := l.Acquire(ctx, "short", e.MinSessionTimeout())
	if err != nil {
		t.Fatalf("acquire with exactly the minimum session %v: %v", e.MinSessionTimeout(), err)
	}
	if got := lease.ValidUntil.Sub(lease.Start); got != e.MinSessionTimeout() {
		t.Errorf("ttl %v granted %v", e.MinSessionTimeout(), got)
	}
	l.Release(ctx, lease)
}

// TestTTLAboveMaximumIsGrantedAsTheMaximum: ValidUntil reports what the server granted.
func TestTTLAboveMaximumIsGrantedAsTheMaximum(t *testing.T) {
	l, e := startStrategy(t, "zookeeper")
	ctx := context.Background()
	lease, err := l.Acquire(ctx, "long", 10*e.MaxSessionTimeout())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release(ctx, lease)
	if got := lease.ValidUntil.Sub(lease.Start); got != e.MaxSessionTimeout() {
		t.Errorf("ttl %v granted %v, want the servers' maximum %v", 10*e.MaxSessionTimeout(), got, e.MaxSessionTimeout())
	}
}

// TestFencesIncreaseAcrossLeaderKill kills the leader of an ensemble of three in the
// middle of a run of acquisitions: every granted czxid must exceed the one before.
func TestFencesIncreaseAcrossLeaderKill(t *testing.T) {
	l, e := startStrategy(t, "zookeeper-3")
	lockstest.FencesIncreaseAcrossLeaderKill(t, l, e)
}

// TestLostDiskRegressesFences is the counterpart the fence check must catch: a lone
// server restarted without its disk counts its zxids from 0 again.
func TestLostDiskRegressesFences(t *testing.T) {
	l, e := startStrategy(t, "zookeeper")
	lockstest.LostDiskRegressesFences(t, l, e.Nodes()[0])
}

func TestCorePackagesDoNotImportZooKeeperClient(t *testing.T) {
	core := []string{testenv.Module + "locks", testenv.Module + "topologies", testenv.Module + "backends/zookeeper/zktopo", testenv.Module + "bench", testenv.Module + "safety", testenv.Module + "safety/lab", testenv.Module + "backends/zookeeper/zklab", testenv.Module + "backends/store"}
	if got := testenv.DependsOn(testenv.Deps(t, core...), "github.com/go-zookeeper/zk"); len(got) > 0 {
		t.Errorf("%v depend on the ZooKeeper client: %v", core, got)
	}
	if got := testenv.DependsOn(testenv.Deps(t, testenv.Module+"backends/zookeeper/zklock"), "github.com/go-zookeeper/zk"); len(got) == 0 {
		t.Error("go list -deps ./backends/zookeeper/zklock shows no go-zookeeper package: the check is blind")
	}
}
