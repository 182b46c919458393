package bench_test

import (
	"context"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/bench"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// BenchmarkWarmUp measures redlock with 64 clients (a key each) on fresh lockers, cold
// (every client's first attempt dials every node) and warmed before the clock, pair
// after pair in one run, and reports both attempt tails over all of its rounds and the
// dials that began inside the measurement.
func BenchmarkWarmUp(b *testing.B) {
	const clients, cyclesPerClient = 64, 70
	topo := testenv.Start(b, backend.Spec{Kind: topologies.Redlock})
	merged := map[bool]*hdrhistogram.Histogram{false: bench.NewHistogram(), true: bench.NewHistogram()}
	dialsInside := map[bool]int{}
	errorsSeen := map[bool]int64{}
	round := func(i int, warmed bool) {
		dials := &dialLog{}
		opts := locks.Options{Options: redisconn.Options{PoolSize: clients, Dialer: dials.dial}}
		l, err := locks.ForTopology(context.Background(), "redlock", topo, opts)
		if err != nil {
			b.Fatal(err)
		}
		defer l.Close()
		load := bench.Load{Clients: clients, Keys: clients, TTL: 10 * time.Second, NoWarm: !warmed,
			KeyPrefix: topologies.KeyPrefixOf(topo) + benchName("warmup:r", i) + map[bool]string{true: ":warm:", false: ":cold:"}[warmed]}
		res, err := bench.RunClosed(context.Background(), l, load, bench.Countdown(clients*cyclesPerClient))
		if err != nil {
			b.Fatal(err)
		}
		if n := res.ErrorTotal(); n > 0 {
			b.Logf("round %d, warmed=%v: %d errors: %v", i, warmed, n, res.Errors) // reported, as they are part of the cost
		}
		errorsSeen[warmed] += res.ErrorTotal()
		merged[warmed].Merge(res.Attempt)
		_, after := dials.count(res.Started)
		dialsInside[warmed] += after
	}
	for i := 0; i < b.N; i++ {
		round(i, false)
		round(i, true)
	}
	for warmed, name := range map[bool]string{false: "cold", true: "warm"} {
		h := merged[warmed]
		b.ReportMetric(float64(h.ValueAtQuantile(50)), name+"-p50-ns")
		b.ReportMetric(float64(h.ValueAtQuantile(99)), name+"-p99-ns")
		b.ReportMetric(float64(h.ValueAtQuantile(99.9)), name+"-p99.9-ns")
		b.ReportMetric(float64(dialsInside[warmed])/float64(h.TotalCount()), name+"-dials/attempt")
		b.ReportMetric(float64(errorsSeen[warmed]), name+"-errors")
	}
}
