package bench_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/bench"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// The engine opens every client's connections (or sessions) to every node before its
// clock starts: no dial begins inside the measurement, while the same run without the
// warm-up dials inside it (so the count would see one). Redlock runs at 64 clients,
// where dials moved p99; the others at 8.
func TestNoDialLandsInTheMeasurement(t *testing.T) {
	for _, tc := range []struct {
		strategy string
		clients  int
		// warmDials is how many dials the warm-up makes (0: not checked; the locker
		// already holds a connection or opened a session of its own at start).
		warmDials int
	}{
		{"redlock", 64, 64 * 5},
		{"single", 64, 64},
		{"wait", 8, 8},
		{"sentinel", 8, 0},
		{"pg-advisory", 8, 0},
		{"pg-for-update", 8, 0},
		{"zookeeper", 8, 0},
	} {
		t.Run(tc.strategy, func(t *testing.T) {
			spec, err := locks.TopologyFor(tc.strategy)
			if err != nil {
				t.Fatal(err)
			}
			topo := testenv.Start(t, spec)
			for _, warmed := range []bool{true, false} {
				before, after := dialsAroundTheClock(t, tc.strategy, topo, tc.clients, warmed)
				t.Logf("warmed=%v: %d dials before the clock started, %d after", warmed, before, after)
				switch {
				case warmed && after != 0:
					t.Errorf("warmed: %d dials began inside the measurement", after)
				// At least: a connection the load timed out during the warm-up is dialled
				// again (321 of 320 in a fresh-clone run), still before the clock.
				case warmed && tc.warmDials > 0 && before < tc.warmDials:
					t.Errorf("warmed: %d dials before the clock, want one per client per node (%d)", before, tc.warmDials)
				case !warmed && after == 0:
					t.Errorf("cold: no dial inside the measurement either: the count cannot tell")
				}
			}
		})
	}
}

// dialsAroundTheClock runs ten cycles per client, a key each, on a fresh locker and
// counts the dials that began before and after the run's clock started.
func dialsAroundTheClock(t *testing.T, strategy string, topo topologies.Topology, clients int, warmed bool) (before, after int) {
	t.Helper()
	dials := &dialLog{}
	opts := locks.Options{Options: redisconn.Options{PoolSize: clients, Dialer: dials.dial}}
	l, err := locks.ForTopology(context.Background(), strategy, topo, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	// A 1 min TTL gives redsync 3 s a node: at 10 s (500 ms), at load 24, one warmed
	// attempt timed out, and a timed-out connection is dialled again inside the clock.
	load := bench.Load{Clients: clients, Keys: clients, TTL: time.Minute, NoWarm: !warmed,
		KeyPrefix: fmt.Sprintf("%s:warmed=%v:", t.Name(), warmed)}
	res, err := bench.RunClosed(context.Background(), l, load, bench.Countdown(10*clients))
	if err != nil {
		t.Fatal(err)
	}
	// The cold run only shows that the count sees a dial inside the clock: its dial
	// storm (a connection per client per node, all at once) may time out a cycle on a
	// loaded machine, which the count does not need. The warmed run must have none.
	if n := res.ErrorTotal(); n > 0 && warmed {
		t.Fatalf("warmed: %d errors: %v", n, res.Errors)
	} else if n > 0 {
		t.Logf("cold: %d errors (timed out under the dial storm): %v", n, res.Errors)
	}
	return dials.count(res.Started)
}

// An attempt the run's end cuts short is counted apart, never in a histogram, and
// leaves no lock behind: 64 clients fight for one key with no retry delay, so the
// deadline finds attempts in flight; runs repeat until one cut some off.
func TestCutOffAttemptsAreCountedApartAndLeaveNoLock(t *testing.T) {
	const clients = 64
	topo := testenv.Start(t, backend.Spec{Kind: topologies.Redlock})
	l, err := locks.ForTopology(context.Background(), "redlock", topo, locks.Options{Options: redisconn.Options{PoolSize: clients}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var nodes []*redis.Client
	for _, m := range topo.Masters() {
		c := redis.NewClient(&redis.Options{Addr: m.Addr(), Protocol: 2, DisableIdentity: true})
		defer c.Close()
		nodes = append(nodes, c)
	}
	// Warmed once, outside the runs: each run's 200 ms deadline is for attempts, and
	// 64 clients' dials to five nodes did not fit inside it under -race.
	if err := locks.Warm(context.Background(), l, locks.WarmUp{Clients: clients, TTL: 10 * time.Second}); err != nil {
		t.Fatal(err)
	}
	var cutOff int64
	deadline := time.Now().Add(2 * time.Minute)
	for run := 0; cutOff == 0; run++ {
		if time.Now().After(deadline) {
			t.Fatalf("no attempt was cut off in %d runs", run)
		}
		prefix := fmt.Sprintf("%s:%d:", t.Name(), run)
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		res, err := bench.RunClosed(ctx, l, bench.Load{Clients: clients, Keys: 1, TTL: 10 * time.Second, KeyPrefix: prefix, NoWarm: true}, func() bool { return true })
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if res.Attempt.TotalCount() != res.Attempts {
			t.Fatalf("run %d: attempt histogram holds %d values, %d attempts counted", run, res.Attempt.TotalCount(), res.Attempts)
		}
		if res.Attempts != res.Granted+res.Refused+res.ErrorTotal() {
			t.Fatalf("run %d: attempts %d != granted %d + refused %d + errors %v", run, res.Attempts, res.Granted, res.Refused, res.Errors)
		}
		for i, c := range nodes {
			left, err := c.Keys(context.Background(), prefix+"*").Result()
			if err != nil {
				t.Fatal(err)
			}
			if len(left) > 0 {
				t.Fatalf("run %d: node %d still holds %v after the run (%d attempts cut off)", run, i, left, res.CutOffAttempts)
			}
		}
		cutOff = res.CutOffAttempts
		t.Logf("run %d: %d attempts, %d granted, %d cut off", run, res.Attempts, res.Granted, res.CutOffAttempts)
	}
}
