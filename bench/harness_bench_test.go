package bench_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/redis/redislock"
	"github.com/lockbench/lockbench/bench"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/netem"
	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// noopLocker grants everything at once: what is left is the harness's own cost.
type noopLocker struct{}

func (noopLocker) Strategy() string { return "noop" }
func (noopLocker) Close() error     { return nil }
func (noopLocker) Acquire(_ context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	return locks.Lease{Key: key}, nil
}
func (noopLocker) Release(context.Context, locks.Lease) error { return nil }
func (noopLocker) Extend(_ context.Context, l locks.Lease, _ time.Duration) (locks.Lease, error) {
	return l, nil
}

// BenchmarkHarnessOverhead is the engine's cost per cycle with a lock that costs
// nothing: timestamps, four histogram records and the loop itself.
func BenchmarkHarnessOverhead(b *testing.B) {
	for _, clients := range []int{1, 8} {
		b.Run(benchName("clients", clients), func(b *testing.B) {
			load := bench.Load{Clients: clients, Keys: clients, TTL: time.Second}
			b.ReportAllocs()
			b.ResetTimer()
			if _, err := bench.RunClosed(context.Background(), noopLocker{}, load, bench.Countdown(b.N)); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// BenchmarkCellMemory runs the same no-op cell for n and 10 x n cycles and reports
// how much the process's memory grew: recorders are fixed-size histograms, so a
// longer cell must not need more memory.
func BenchmarkCellMemory(b *testing.B) {
	const clients, short = 64, 200_000
	load := bench.Load{Clients: clients, Keys: clients, TTL: time.Second}
	peak := func(cycles int) uint64 {
		runtime.GC()
		if _, err := bench.RunClosed(context.Background(), noopLocker{}, load, bench.Countdown(cycles)); err != nil {
			b.Fatal(err)
		}
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapInuse
	}
	for i := 0; i < b.N; i++ {
		shortHeap := peak(short)
		longHeap := peak(10 * short)
		b.ReportMetric(float64(shortHeap), "heap-short-B")
		b.ReportMetric(float64(longHeap), "heap-10x-B")
		b.ReportMetric(float64(longHeap)/float64(shortHeap), "heap-ratio-10x")
	}
}

// BenchmarkInjectedLatency measures the single strategy's acquire median without and
// with 5 ms added each way on the master, one client, and reports it against the
// expected base + 2 x 5 ms.
func BenchmarkInjectedLatency(b *testing.B) {
	topo := testenv.Start(b, backend.Spec{Kind: topologies.Single})
	testenv.OwnServers(b, topo, "a network profile puts proxies between the client and the servers")
	const oneWay = 5 * time.Millisecond
	median := func(network *netem.Network, d time.Duration) time.Duration {
		opts := redisconn.Options{PoolSize: 1}
		if network != nil {
			opts.Dialer = network.Dialer()
		}
		l, err := redislock.NewSingle(context.Background(), topo.Masters()[0].Addr(), opts)
		if err != nil {
			b.Fatal(err)
		}
		defer l.Close()
		ctx, cancel := context.WithTimeout(context.Background(), d)
		defer cancel()
		res, err := bench.RunClosed(ctx, l, bench.Load{Clients: 1, Keys: 1, TTL: 10 * time.Second}, func() bool { return true })
		if err != nil {
			b.Fatal(err)
		}
		return time.Duration(res.Attempt.ValueAtQuantile(50))
	}
	throughNetem := func(d time.Duration) time.Duration {
		network, err := netem.Start(topo, netem.Profile{Name: "uniform", Latency: oneWay}, 1)
		if err != nil {
			b.Fatal(err)
		}
		defer network.Close() // on b.Fatal too: no proxy outlives the round
		return median(network, d)
	}
	for i := 0; i < b.N; i++ {
		base := median(nil, 2*time.Second)
		slowed := throughNetem(3 * time.Second)
		expected := base + 2*oneWay
		b.ReportMetric(float64(base), "base-p50-ns")
		b.ReportMetric(float64(slowed), "injected-p50-ns")
		b.ReportMetric(float64(slowed)/float64(expected), "ratio-to-expected")
	}
}

// BenchmarkThousandClients runs 1,000 concurrent clients on the single strategy, one
// key each, and fails on any error.
func BenchmarkThousandClients(b *testing.B) {
	topo := testenv.Start(b, backend.Spec{Kind: topologies.Single})
	const clients = 1000
	round := func(i int) bench.Result {
		opts := redisconn.Options{PoolSize: clients, Access: topologies.AccessOf(topo), KeyPrefix: topologies.KeyPrefixOf(topo)}
		l, err := redislock.NewSingle(context.Background(), topo.Masters()[0].Addr(), opts)
		if err != nil {
			b.Fatal(err)
		}
		defer l.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		// Each round its own keys: a lock an earlier round's end left must not block it.
		load := bench.Load{Clients: clients, Keys: clients, TTL: 10 * time.Second, KeyPrefix: topologies.KeyPrefixOf(topo) + fmt.Sprintf("thousand:r%d:", i)}
		res, err := bench.RunClosed(ctx, l, load, func() bool { return true })
		if err != nil {
			b.Fatal(err)
		}
		return res
	}
	for i := 0; i < b.N; i++ {
		res := round(i)
		if n := res.ErrorTotal(); n > 0 {
			b.Errorf("%d errors with %d clients: %v", n, clients, res.Errors)
		}
		b.ReportMetric(res.CyclesPerSecond(), "acquisitions/s")
		b.ReportMetric(float64(res.ErrorTotal()), "errors")
		b.ReportMetric(float64(res.Attempt.ValueAtQuantile(99)), "p99-ns")
	}
}

func benchName(k string, v int) string { return fmt.Sprintf("%s=%d", k, v) }
