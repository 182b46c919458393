package bench_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/bench"
	"github.com/lockbench/lockbench/resources/pgaccount"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
	"github.com/lockbench/lockbench/updates"
)

// updateWays are the ways BenchmarkUpdate measures: a lock of each kind with the
// plain and the fenced write, and every lock-free strategy.
var updateWays = []struct{ strategy, guard string }{
	{"single", "unfenced"}, {"single", "fenced"},
	{"etcd", "unfenced"}, {"etcd", "fenced"},
	{"pg-advisory", "unfenced"}, {"pg-advisory", "fenced"},
	{"cas-version", ""}, {"unique-key", ""}, {"atomic", ""},
	{"lua-cas", ""}, {"watch-multi", ""},
}

// BenchmarkUpdate measures the cost of one correct update of an account row by every
// way, each over its own real servers; one op is one applied update. It reports the
// audit's lost updates as a metric: anything but 0 is a finding.
func BenchmarkUpdate(b *testing.B) {
	testenv.RequirePostgres(b)
	rows := testenv.Start(b, backend.Spec{Kind: topologies.Postgres})
	var strategies []string
	for _, way := range updateWays {
		strategies = append(strategies, way.strategy)
	}
	started := testenv.StartShared(b, strategies, updates.TopologyFor)
	for _, topo := range started {
		testenv.OwnServers(b, topo, "the update workload keeps fence counters and rows outside the lock commands")
	}
	for _, way := range updateWays {
		name := way.strategy
		if way.guard != "" {
			name += "+" + way.guard
		}
		b.Run("way="+name, func(b *testing.B) {
			topo := started[way.strategy]
			for _, clients := range []int{1, 8, 64} {
				for _, nrows := range uniq(1, clients) {
					b.Run(fmt.Sprintf("clients=%d/rows=%d", clients, nrows), func(b *testing.B) {
						benchmarkUpdates(b, updates.Setup{
							Strategy: way.strategy, Guard: way.guard, Topology: topo, PostgresDSN: dsnOf(rows, topo),
							Clients: clients, Rows: nrows, TTL: 10 * time.Second,
							Prefix:     fmt.Sprintf("bench:%s:c%d:r%d:", name, clients, nrows),
							RetryDelay: retryDelay, MaxRetryDelay: maxRetryDelay,
						})
					})
				}
			}
		})
	}
}

// dsnOf is the database of the rows: the strategy's own PostgreSQL, or the one shared.
func dsnOf(rows, topo topologies.Topology) string {
	if server, ok := topo.(interface{ DSN() string }); ok {
		return server.DSN()
	}
	return rows.(interface{ DSN() string }).DSN()
}

func benchmarkUpdates(b *testing.B, setup updates.Setup) {
	ctx := context.Background()
	way, err := updates.New(ctx, setup)
	if err != nil {
		b.Fatal(err)
	}
	defer way.Close()
	runCtx, cancel := context.WithTimeout(ctx, roundCap)
	defer cancel()
	b.ResetTimer()
	res, err := bench.RunUpdates(runCtx, way, bench.UpdateLoad{Clients: setup.Clients, Rows: setup.Rows}, bench.Countdown(b.N))
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	audit, err := way.Audit(ctx)
	if err != nil {
		b.Fatal(err)
	}
	reportUpdates(b, res, audit)
}

func reportUpdates(b *testing.B, res bench.UpdateResult, audit updates.Audit) {
	b.ReportMetric(res.UpdatesPerSecond(), "updates/s")
	b.ReportMetric(res.RetriesPerUpdate(), "retries/update")
	b.ReportMetric(float64(audit.LostUpdates), "lost")
	for _, p := range []struct {
		q    float64
		unit string
	}{{50, "p50-ns"}, {99, "p99-ns"}, {99.9, "p99.9-ns"}} {
		b.ReportMetric(float64(res.Update.ValueAtQuantile(p.q)), p.unit)
	}
	if n := res.Applied + res.Refused; n > 0 {
		b.ReportMetric(float64(res.Refused)/float64(n), "refused/update")
	}
	if audit.LostUpdates != 0 {
		b.Logf("FINDING: %d updates lost with no fault injected", audit.LostUpdates)
	}
}

// BenchmarkCASVersionVsPgbench runs, on one server in one run, pgbench with a script of
// cas-version's statements (8 clients, a row each, -T seconds) and then the cas-version
// strategy through the update engine for as long, and reports the ratio of their rates:
// what the Go client, the engine and the audit log cost against PostgreSQL's own driver.
// LOCKBENCH_PGBENCH_SECONDS sets the duration (default 10).
func BenchmarkCASVersionVsPgbench(b *testing.B) {
	testenv.RequirePostgres(b)
	bin, err := bench.FindPgbench()
	if err != nil {
		testenv.MissingTool(b, err)
	}
	seconds := 10
	if v := os.Getenv("LOCKBENCH_PGBENCH_SECONDS"); v != "" {
		if seconds, err = strconv.Atoi(v); err != nil || seconds < 1 {
			b.Fatalf("LOCKBENCH_PGBENCH_SECONDS=%q: want whole seconds >= 1", v)
		}
	}
	const clients = 8
	d := time.Duration(seconds) * time.Second
	srv := testenv.Start(b, backend.Spec{Kind: topologies.Postgres})
	dsn := srv.(interface{ DSN() string }).DSN()
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		// The rows pgbench updates: the same table, reset, one per client.
		res, err := pgaccount.Open(ctx, dsn, clients, 1<<40)
		if err != nil {
			b.Fatal(err)
		}
		res.Close()
		pg, err := bench.RunPgbench(ctx, bin, dsn, bench.CASVersionScript, clients, d)
		if err != nil {
			b.Fatal(err)
		}
		way, err := updates.New(ctx, updates.Setup{Strategy: "cas-version", PostgresDSN: dsn, Clients: clients, Rows: clients})
		if err != nil {
			b.Fatal(err)
		}
		runCtx, cancel := context.WithTimeout(ctx, d)
		got, err := bench.RunUpdates(runCtx, way, bench.UpdateLoad{Clients: clients, Rows: clients}, func() bool { return true })
		cancel()
		if err != nil {
			way.Close()
			b.Fatal(err)
		}
		audit, err := way.Audit(ctx)
		way.Close()
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(pg.TPS, "pgbench-tps")
		reportUpdates(b, got, audit)
		b.ReportMetric(got.UpdatesPerSecond()/pg.TPS, "ratio-to-pgbench")
	}
}
