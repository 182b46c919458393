package bench_test

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"sync/atomic"
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

// A refused client waits retryDelay before its next attempt, doubling up to
// maxRetryDelay. Retrying at once turned 64 clients on one key into a livelock on etcd
// (each refusal costs four raft writes, and the holder's release queued behind them
// for minutes); a fixed 1 ms still left etcd-3 at 64 clients running for minutes.
const (
	retryDelay    = time.Millisecond
	maxRetryDelay = 32 * time.Millisecond
	// roundCap ends a benchmark round that would run for minutes (the framework asks
	// for 100 cycles after one; etcd-3 with 64 clients on one key manages a few a
	// second); the round reports what its completed cycles cost.
	roundCap = 20 * time.Second
)

// BenchmarkAcquireRelease measures acquire-release cycles of every strategy against
// its own real topology, started once per strategy. One op is one completed cycle.
func BenchmarkAcquireRelease(b *testing.B) {
	for _, strategy := range locks.Strategies() {
		b.Run("strategy="+strategy, func(b *testing.B) {
			spec, err := locks.TopologyFor(strategy)
			if err != nil {
				b.Fatal(err)
			}
			topo := testenv.Start(b, spec)
			for _, clients := range []int{1, 8, 64} {
				for _, keys := range uniq(1, clients) {
					b.Run(fmt.Sprintf("clients=%d/keys=%d", clients, keys), func(b *testing.B) {
						benchmarkCycles(b, strategy, topo, bench.Load{
							Clients: clients, Keys: keys, TTL: 10 * time.Second, RetryDelay: retryDelay, MaxRetryDelay: maxRetryDelay,
							KeyPrefix: fmt.Sprintf("bench:%s:c%d:k%d:", strategy, clients, keys),
						})
					})
				}
			}
		})
	}
}

// rounds numbers benchmark rounds across the run, for their key prefixes.
var rounds atomic.Int64

func benchmarkCycles(b *testing.B, strategy string, topo topologies.Topology, load bench.Load) {
	ctx := context.Background()
	load.KeyPrefix = topologies.KeyPrefixOf(topo) + load.KeyPrefix // servers not ours: under the run's prefix
	// One connection per client: fewer would measure the pool's queue, not the lock.
	l, err := locks.ForTopology(ctx, strategy, topo, locks.Options{Options: redisconn.Options{PoolSize: load.Clients}})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	// Every client's connections open before the timer: a dial is no part of a cycle.
	if err := locks.Warm(ctx, l, locks.WarmUp{Clients: load.Clients, TTL: load.TTL}); err != nil {
		b.Fatal(err)
	}
	load.NoWarm = true
	// Each library waits its own way unless LOCKBENCH_WAIT=attempts (docs/libraries.md).
	load.Wait = cmp.Or(os.Getenv("LOCKBENCH_WAIT"), bench.WaitNatural)
	attempts := (*hdrhistogram.Histogram)(nil)
	if bench.NeedsAttemptProbe(l, load) {
		// A library's wait hides its attempts: one attempt's cost is timed apart, untimed by b.
		if attempts, err = bench.ProbeAttempts(ctx, l, load); err != nil {
			b.Fatal(err)
		}
	}
	// Each round its own keys: a lock left by a round the cap ended must not block the next.
	load.KeyPrefix += fmt.Sprintf("r%d:", rounds.Add(1))
	runCtx, cancel := context.WithTimeout(ctx, roundCap)
	defer cancel()
	b.ResetTimer()
	res, err := bench.RunClosed(runCtx, l, load, bench.Countdown(b.N))
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	if res.Granted < int64(b.N) && res.Granted > 0 {
		// Capped: ns/op is what the completed cycles cost, not b.N's share.
		b.ReportMetric(float64(res.Elapsed)/float64(res.Granted), "ns/op")
		b.Logf("stopped at the %v cap after %d of %d cycles", roundCap, res.Granted, b.N)
	} else if res.Granted == 0 {
		b.Errorf("no cycle completed within %v", roundCap)
	}
	if n := res.ErrorTotal(); n > 0 {
		b.Errorf("%d errors: %v", n, res.Errors)
	}
	if res.CutOffAttempts+res.CutOffHolds > 0 {
		b.Logf("the cap cut off %d attempts and %d holds: counted apart, in no histogram", res.CutOffAttempts, res.CutOffHolds)
	}
	if attempts == nil {
		attempts = res.Attempt
	}
	b.ReportMetric(float64(attempts.ValueAtQuantile(50)), "p50-ns")
	b.ReportMetric(float64(attempts.ValueAtQuantile(99)), "p99-ns")
	b.ReportMetric(float64(attempts.ValueAtQuantile(99.9)), "p99.9-ns")
	b.ReportMetric(res.CyclesPerSecond(), "acquisitions/s")
	b.ReportMetric(res.RefusedPerCycle(), "fails/op")
	if load.Wait == bench.WaitNatural {
		// The wait, request to grant, is the measure; p50-ns and p99-ns are one attempt's.
		b.ReportMetric(float64(res.AcquireWait.ValueAtQuantile(50)), "wait-p50-ns")
		b.ReportMetric(float64(res.AcquireWait.ValueAtQuantile(99)), "wait-p99-ns")
		b.Logf("waiting: %s", bench.Waiting(l, load))
	}
	if strategy == "single" || strategy == "sentinel" {
		// Each attempt and each release is one Redis command.
		b.ReportMetric(float64(res.Attempts+res.Granted)/res.Elapsed.Seconds(), "commands/s")
	}
}

// BenchmarkRedisBenchmarkSetNX runs redis-benchmark's SET NX PX on random keys with 64
// connections: the server's ceiling for the single strategy's commands/s, same machine,
// same run.
func BenchmarkRedisBenchmarkSetNX(b *testing.B) {
	bin, err := bench.FindRedisBenchmark()
	if err != nil {
		testenv.MissingTool(b, err)
	}
	topo := testenv.Start(b, backend.Spec{Kind: topologies.Single})
	testenv.OwnServers(b, topo, "redis-benchmark sends commands and keys outside the allow-list")
	b.Run("clients=64", func(b *testing.B) {
		const requests = 200000
		res, err := bench.RunSetNXBaseline(context.Background(), bin, topo.Masters()[0].Addr(), 64, requests)
		if err != nil {
			b.Fatal(err)
		}
		// One op is one request, whatever b.N asked: redis-benchmark runs its own count.
		b.ReportMetric(1e9/res.RequestsPerSecond, "ns/op")
		b.ReportMetric(res.RequestsPerSecond, "commands/s")
		b.ReportMetric(res.P50Ms*1e6, "p50-ns")
		b.ReportMetric(res.P99Ms*1e6, "p99-ns")
	})
}

func uniq(a, b int) []int {
	if a == b {
		return []int{a}
	}
	return []int{a, b}
}
