package bench_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/bench"
	"github.com/lockbench/lockbench/resources/pgaccount"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

const pgbenchOutput = `pgbench (15.8 (Debian 15.8-0+deb12u1))
transaction type: /tmp/x.sql
scaling factor: 1
query mode: simple
number of clients: 8
number of threads: 1
maximum number of tries: 1
duration: 10 s
number of transactions actually processed: 123456
number of failed transactions: 0 (0.000%)
latency average = 0.648 ms
initial connection time = 12.345 ms
tps = 12345.678901 (without initial connection time)
`

func TestParsePgbench(t *testing.T) {
	r, err := bench.ParsePgbench(pgbenchOutput)
	if err != nil {
		t.Fatal(err)
	}
	if r.TPS != 12345.678901 || r.Transactions != 123456 {
		t.Errorf("parsed %+v", r)
	}
	failed := strings.Replace(pgbenchOutput, "failed transactions: 0", "failed transactions: 3", 1)
	if _, err := bench.ParsePgbench(failed); err == nil || !strings.Contains(err.Error(), "3 transactions failed") {
		t.Errorf("failed transactions: err = %v", err)
	}
	if _, err := bench.ParsePgbench("pgbench: error: connection refused"); err == nil {
		t.Error("output without a summary parsed")
	}
}

// TestPgbenchRunsCASVersionScript runs the comparison's pgbench half for a second on a
// real server: the script must be accepted and update the rows it names.
func TestPgbenchRunsCASVersionScript(t *testing.T) {
	testenv.RequirePostgres(t)
	bin, err := bench.FindPgbench()
	if err != nil {
		testenv.MissingTool(t, err)
	}
	dsn := testenv.Start(t, backend.Spec{Kind: topologies.Postgres}).(interface{ DSN() string }).DSN()
	ctx := context.Background()
	res, err := pgaccount.Open(ctx, dsn, 2, 1000)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	got, err := bench.RunPgbench(ctx, bin, dsn, bench.CASVersionScript, 2, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if got.Transactions == 0 || got.TPS <= 0 {
		t.Fatalf("pgbench processed nothing: %+v", got)
	}
	audit, err := res.Audit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var versions int64
	for _, a := range audit.Accounts {
		versions += a.Version
		if a.Balance != 1000-a.Version {
			t.Errorf("row %d: balance %d after %d versions: the script's read-then-write lost one", a.ID, a.Balance, a.Version)
		}
	}
	// Each client owns its row, so every transaction's conditional UPDATE applied (one
	// per client may have been cut off by the end of -T, uncounted).
	if versions < got.Transactions || versions > got.Transactions+2 {
		t.Errorf("rows moved %d versions, pgbench reported %d transactions", versions, got.Transactions)
	}
}
