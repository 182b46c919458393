package embedded_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/embedded"
	"github.com/lockbench/lockbench/topologies/testenv"
)

func start(t *testing.T, spec backend.Spec) topologies.Topology {
	t.Helper()
	return testenv.StartNamed(t, "embedded", spec)
}

// client reads patiently: a paused node's silence lasts however long it is waited for,
// and a loaded machine may hold a running one's answer past a fraction of a second.
func client(t *testing.T, n topologies.Node) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: n.Addr(), Protocol: 2, DisableIdentity: true, MaxRetries: -1,
		ReadTimeout: 10 * time.Second})
	t.Cleanup(func() { c.Close() })
	return c
}

func TestRefusesKindsWithoutReplication(t *testing.T) {
	for _, k := range []backend.Kind{topologies.Replicated, topologies.Sentinel} {
		if _, err := (embedded.Provider{}).Start(context.Background(), backend.Spec{Kind: k}); err == nil {
			t.Errorf("embedded provider started a %s topology", k)
		}
	}
}

// The strategies' own code, unchanged, on embedded nodes: redsync's scripts for
// redlock, SET NX PX and the Lua release/extend for single.
func TestLockStrategiesRunUnchanged(t *testing.T) {
	ctx := context.Background()
	for _, strategy := range []string{"single", "redlock"} {
		spec, err := locks.TopologyFor(strategy)
		if err != nil {
			t.Fatal(err)
		}
		topo := start(t, spec)
		a, err := locks.ForTopology(ctx, strategy, topo, locks.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		b, err := locks.ForTopology(ctx, strategy, topo, locks.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()

		lease, err := a.Acquire(ctx, "k", 5*time.Second)
		if err != nil {
			t.Fatalf("%s: acquire: %v", strategy, err)
		}
		if _, err := b.Acquire(ctx, "k", 5*time.Second); !errors.Is(err, locks.ErrNotAcquired) {
			t.Fatalf("%s: second owner got %v, want ErrNotAcquired", strategy, err)
		}
		if lease, err = a.Extend(ctx, lease, 10*time.Second); err != nil {
			t.Fatalf("%s: extend: %v", strategy, err)
		}
		if err := b.Release(ctx, locks.Lease{Key: "k", Token: "not-the-owner"}); !errors.Is(err, locks.ErrNotHeld) {
			t.Fatalf("%s: a stranger's release gave %v, want ErrNotHeld", strategy, err)
		}
		if err := a.Release(ctx, lease); err != nil {
			t.Fatalf("%s: release: %v", strategy, err)
		}
		if _, err := b.Acquire(ctx, "k", 5*time.Second); err != nil {
			t.Fatalf("%s: acquire after release: %v", strategy, err)
		}
	}
}

func TestTTLMovesWithRealTimeAtRateOne(t *testing.T) {
	topo := start(t, backend.Spec{Kind: topologies.Single})
	c := client(t, topo.Masters()[0])
	mustSet(t, c, "long", time.Hour)
	setAt := time.Now()
	mustSet(t, c, "short", 50*time.Millisecond)
	deadline := setAt.Add(10 * time.Second)
	for mustExists(t, c, "short") == 1 {
		if time.Now().After(deadline) {
			t.Fatal("a 50 ms key still there after 10 s of real time")
		}
		time.Sleep(time.Millisecond)
	}
	if lived := time.Since(setAt); lived < 50*time.Millisecond {
		t.Errorf("a 50 ms key expired after %v of real time", lived)
	}
	if n := mustExists(t, c, "long"); n != 1 {
		t.Error("a 1 h key vanished")
	}
}

// mustSet stores key with a TTL, or stops the test: a lost SET would make a TTL check vacuous.
func mustSet(t *testing.T, c *redis.Client, key string, ttl time.Duration) {
	t.Helper()
	if err := c.Set(context.Background(), key, "v", ttl).Err(); err != nil {
		t.Fatalf("SET %s: %v", key, err)
	}
}

func mustPTTL(t *testing.T, c *redis.Client, key string) time.Duration {
	t.Helper()
	d, err := c.PTTL(context.Background(), key).Result()
	if err != nil {
		t.Fatalf("PTTL %s: %v", key, err)
	}
	return d
}

func mustExists(t *testing.T, c *redis.Client, key string) int64 {
	t.Helper()
	n, err := c.Exists(context.Background(), key).Result()
	if err != nil {
		t.Fatalf("EXISTS %s: %v", key, err)
	}
	return n
}

func TestModelDrivesExpiryDeterministically(t *testing.T) {
	fake := clocks.NewFake(time.Unix(1_000_000, 0))
	model := clocks.Model{Rate: 2, Jumps: []clocks.Jump{{After: "grant", By: 3 * time.Second}}}
	p := embedded.Provider{Clock: fake}
	topo, err := p.Start(context.Background(), backend.Spec{Kind: topologies.Single, Clocks: map[string]clocks.Model{"master-0": model}})
	if err != nil {
		t.Fatal(err)
	}
	defer topo.Close()
	node := topo.Masters()[0]
	c := client(t, node)
	ctx := context.Background()
	mustSet(t, c, "k", 10*time.Second) // node time 10 s = real 5 s at rate 2
	fake.Advance(2 * time.Second)      // node time +4 s
	if ttl := mustPTTL(t, c, "k"); ttl != 6*time.Second {
		t.Fatalf("PTTL after 2 s real at rate 2 = %v, want 6s", ttl)
	}
	topologies.NodeClock(node).FireNow("grant") // node time +3 s
	if ttl := mustPTTL(t, c, "k"); ttl != 3*time.Second {
		t.Fatalf("PTTL after a +3 s jump = %v, want 3s", ttl)
	}
	fake.Advance(1500 * time.Millisecond) // node time +3 s: expiry exactly now
	if n := mustExists(t, c, "k"); n != 0 {
		t.Fatal("key alive at its model expiry")
	}
	tm, err := c.Time(ctx).Result()
	if err != nil {
		t.Fatal(err)
	}
	// 3.5 s real at rate 2 = 7 s, plus the 3 s jump: 10 s after the start.
	if want := time.Unix(1_000_010, 0); !tm.Equal(want) {
		t.Fatalf("TIME = %v, want the model's reading %v", tm, want)
	}
}

func TestBackwardJumpLengthensTTL(t *testing.T) {
	fake := clocks.NewFake(time.Unix(1_000_000, 0))
	topo, err := embedded.Provider{Clock: fake}.Start(context.Background(), backend.Spec{Kind: topologies.Single,
		Clocks: map[string]clocks.Model{"master-0": {Jumps: []clocks.Jump{{At: time.Second, By: -time.Minute}}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer topo.Close()
	c := client(t, topo.Masters()[0])
	mustSet(t, c, "k", 10*time.Second)
	fake.Advance(time.Second)
	if ttl := mustPTTL(t, c, "k"); ttl != 69*time.Second {
		t.Fatalf("PTTL after a -1 min jump = %v, want 1m9s", ttl)
	}
}

func TestKillPauseRestart(t *testing.T) {
	topo := start(t, backend.Spec{Kind: topologies.Single})
	node := topo.Masters()[0]
	c := client(t, node)
	ctx := context.Background()
	mustSet(t, c, "k", time.Hour)

	testenv.PauseSilences(t, node, func() error { return c.Ping(ctx).Err() })

	if err := node.Kill(); err != nil {
		t.Fatal(err)
	}
	if node.Running() || c.Ping(ctx).Err() == nil {
		t.Fatal("a killed node still answers")
	}
	if err := node.Restart(ctx, topologies.RestartWithSnapshot); err != nil {
		t.Fatal(err)
	}
	// Killed before the snapshot: nothing was saved, as with a process without AOF.
	if n, err := c.Exists(ctx, "k").Result(); err != nil || n != 0 {
		t.Fatalf("after kill + restart: exists = %d, %v; want 0 (nothing saved)", n, err)
	}
	mustSet(t, c, "k2", time.Hour)
	if err := node.Restart(ctx, topologies.RestartWithSnapshot); err != nil {
		t.Fatal(err)
	}
	if n := mustExists(t, c, "k2"); n != 1 {
		t.Fatal("restart with snapshot of a running node lost the key")
	}
	if err := node.Restart(ctx, topologies.RestartEmpty); err != nil {
		t.Fatal(err)
	}
	if n := mustExists(t, c, "k2"); n != 0 {
		t.Fatal("restart empty kept the key")
	}
}

func TestStrobeMovesTTLBothWays(t *testing.T) {
	fake := clocks.NewFake(time.Unix(1_000_000, 0))
	m := clocks.Model{Strobe: clocks.Strobe{Amplitude: time.Second, Period: 4 * time.Second}}
	topo, err := embedded.Provider{Clock: fake}.Start(context.Background(), backend.Spec{Kind: topologies.Single, Clocks: map[string]clocks.Model{"master-0": m}})
	if err != nil {
		t.Fatal(err)
	}
	defer topo.Close()
	node := topo.Masters()[0]
	clock := topologies.NodeClock(node)
	c := client(t, node)
	mustSet(t, c, "k", time.Minute)
	// Walk to the next edge and across it; the TTL must jump by the amplitude.
	at := clock.Elapsed()
	edge := clock.Breakpoints(at, at+4*time.Second)[0]
	stepBefore := clock.Step(at)
	fake.Advance(edge - at)
	stepAfter := clock.Step(edge)
	ttl := mustPTTL(t, c, "k")
	want := time.Minute - (edge - at) - (stepAfter - stepBefore)
	if diff := ttl - want; diff <= -time.Millisecond || diff >= time.Millisecond { // PTTL counts whole ms
		t.Fatalf("PTTL across a strobe edge (%v -> %v) = %v, want %v", stepBefore, stepAfter, ttl, want)
	}
}

// A server clock that stood still while true time moved is reported as lag from the
// mark on, even once a command has brought it up to date, and a new mark forgets it: a
// key set in that span started its TTL in the past.
func TestClockLagCountsTimeTheServerClockStoodStill(t *testing.T) {
	fake := clocks.NewFake(time.Unix(1_000_000, 0))
	topo, err := embedded.Provider{Clock: fake}.Start(context.Background(), backend.Spec{Kind: topologies.Redlock, Masters: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer topo.Close()
	catchUp := func() { // a command brings its node's clock up to date
		for _, n := range topo.Masters() {
			if _, err := client(t, n).Time(context.Background()).Result(); err != nil {
				t.Fatal(err)
			}
		}
	}
	topologies.MarkClockLag(topo)
	fake.Advance(2 * time.Second)
	catchUp()
	if lag := topologies.MaxClockLag(topo); lag != 2*time.Second {
		t.Fatalf("lag after 2 s that the servers' clocks stood still = %v, want 2s", lag)
	}
	topologies.MarkClockLag(topo)
	catchUp()
	if lag := topologies.MaxClockLag(topo); lag != 0 {
		t.Fatalf("lag after a new mark with every clock up to date = %v, want 0", lag)
	}
}
