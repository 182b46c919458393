package updates_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/bench"
	"github.com/lockbench/lockbench/locks/lockstest"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
	"github.com/lockbench/lockbench/updates"
)

func TestValidateNamesWhatCannotWork(t *testing.T) {
	for _, c := range []struct{ strategy, guard, want string }{
		{"redlock", "fenced", "guard fenced needs a fencing token and strategy redlock has none"},
		{"redlock", "check-then-write+outbox", "strategy redlock has none"},
		{"single", "fancy", `unknown guard mode "fancy"`},
		{"cas-version", "fenced", "strategy cas-version is lock-free: it takes no guard"},
		{"consul", "unfenced", "consul"},
	} {
		err := updates.Validate(c.strategy, c.guard)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate(%s, %s) = %v, want an error naming %q", c.strategy, c.guard, err, c.want)
		}
	}
	for _, ok := range [][2]string{{"redlock", "unfenced"}, {"redlock", "read-modify-write"}, {"single", "fenced"}, {"etcd", "check-then-write"}, {"pg-advisory", "fenced+outbox"}, {"atomic", ""}} {
		if err := updates.Validate(ok[0], ok[1]); err != nil {
			t.Errorf("Validate(%s, %s) = %v", ok[0], ok[1], err)
		}
	}
}

// TestEveryWayKeepsEveryUpdate drives each way with 8 clients on one hot row, the most
// contended load, on real servers, and audits the rows: with no fault, a correct way
// applies every change once and loses none. The locks are patient: at pg-for-update's
// 2 s a call, at load 60, six of 200 updates' lock calls outlasted it (timeouts).
func TestEveryWayKeepsEveryUpdate(t *testing.T) {
	testenv.RequireRedis(t)
	testenv.RequirePostgres(t)
	rows := testenv.Start(t, backend.Spec{Kind: topologies.Postgres}).(interface{ DSN() string }).DSN()
	ways := []struct{ strategy, guard string }{
		{"single", "unfenced"}, {"single", "fenced"}, {"single", "read-modify-write"}, {"single", "check-then-write+outbox"},
		{"redlock", "read-modify-write"}, {"etcd", "fenced"}, {"zookeeper", "fenced"}, {"pg-advisory", "fenced"}, {"pg-for-update", "read-modify-write"},
		{"cas-version", ""}, {"unique-key", ""}, {"atomic", ""}, {"lua-cas", ""}, {"watch-multi", ""},
	}
	var strategies []string
	for _, way := range ways {
		strategies = append(strategies, way.strategy)
	}
	started := testenv.StartShared(t, strategies, updates.TopologyFor)
	for _, way := range ways {
		t.Run(way.strategy+"+"+way.guard, func(t *testing.T) {
			topo := started[way.strategy]
			dsn := rows
			if server, ok := topo.(interface{ DSN() string }); ok {
				dsn = server.DSN()
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // only stops a hung test
			defer cancel()
			w, err := updates.New(ctx, updates.Setup{Strategy: way.strategy, Guard: way.guard, Topology: topo, PostgresDSN: dsn,
				Clients: 8, Rows: 1, TTL: 10 * time.Second, Prefix: fmt.Sprintf("test:%s:%s:", way.strategy, way.guard),
				RetryDelay: time.Millisecond, MaxRetryDelay: 8 * time.Millisecond, Locker: lockstest.PatientOptions()})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			const n = 200
			res, err := bench.RunUpdates(ctx, w, bench.UpdateLoad{Clients: 8, Rows: 1}, bench.Countdown(n))
			if err != nil {
				t.Fatal(err)
			}
			a, err := w.Audit(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if res.Applied != n || a.Applied != n || a.Intended != n || a.LostUpdates != 0 || a.LostAmount != 0 || a.Duplicates != 0 {
				t.Errorf("run %+v, audit %+v: want %d applied once each, none lost", res.Errors, a, n)
			}
		})
	}
}
