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
	"github.com/redis/go-redis/v9"
)

// startStrategy starts the strategy's own topology and a locker over it.
func startStrategy(t *testing.T, name string, opts locks.Options) (locks.Locker, topologies.Topology) {
	return lockstest.StartStrategy(t, name, opts)
}

func TestCounterDetectsMissingMutualExclusion(t *testing.T) {
	const workers, increments = 8, 25
	if got, done := lockstest.CountUnderLock(t, lockstest.NoLock{}, workers, increments); got == done {
		t.Errorf("counter = %d after %d increments with no lock at all: the check cannot see two holders", got, done)
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
	if _, err := locks.TopologyFor("no-such-strategy"); err == nil || !strings.Contains(err.Error(), "no-such-strategy") {
		t.Errorf("unknown strategy error %v does not name it", err)
	}
}

func TestOneMasterStrategiesRefuseMoreThanOneAddress(t *testing.T) {
	for _, name := range []string{"single", "wait"} {
		_, err := locks.AtAddrs(context.Background(), name, []string{"127.0.0.1:1", "127.0.0.1:2"}, locks.Options{})
		if err == nil || !strings.Contains(err.Error(), "got 2") {
			t.Errorf("%s at two addresses: got %v, want a refusal", name, err)
		}
	}
}
