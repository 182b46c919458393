package bench_test

// The etcd strategies (etcd, etcd-3 and their unsafe no-fsync variants) register
// themselves and both etcd providers on import, so BenchmarkAcquireRelease measures the
// consensus baseline beside the Redis strategies in the same run, on the default
// provider (etcd-process: every member a process of its own). Only this test binary
// carries etcd: package bench itself does not import it.

import (
	"fmt"
	"testing"
	"time"

	"github.com/lockbench/lockbench/bench"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// BenchmarkConsensusProviders measures etcd-3 with its members inside this process
// (embedded-etcd, sharing the client's Go scheduler) and in processes of their own
// (etcd-process), beside zookeeper-3 (its own JVMs), in one run, a key per client:
// the fair consensus baseline.
func BenchmarkConsensusProviders(b *testing.B) {
	for _, c := range []struct{ strategy, provider string }{
		{"etcd-3", "embedded-etcd"},
		{"etcd-3", "etcd-process"},
		{"zookeeper-3", ""}, // its kind's default: zookeeper-process
	} {
		name := "strategy=" + c.strategy
		if c.provider != "" {
			name += "/provider=" + c.provider
		}
		b.Run(name, func(b *testing.B) {
			topo := startOn(b, c.strategy, c.provider)
			for _, clients := range []int{1, 8, 64} {
				b.Run(fmt.Sprintf("clients=%d/keys=%d", clients, clients), func(b *testing.B) {
					benchmarkCycles(b, c.strategy, topo, bench.Load{
						Clients: clients, Keys: clients, TTL: 10 * time.Second, RetryDelay: retryDelay, MaxRetryDelay: maxRetryDelay,
						KeyPrefix: fmt.Sprintf("bench:%s:%s:c%d:", c.strategy, c.provider, clients),
					})
				})
			}
		})
	}
}

// startOn starts strategy's topology with the named provider ("" for its kind's
// default), closed when b ends.
func startOn(b *testing.B, strategy, provider string) topologies.Topology {
	b.Helper()
	spec, err := locks.TopologyFor(strategy)
	if err != nil {
		b.Fatal(err)
	}
	if provider == "" {
		return testenv.Start(b, spec)
	}
	return testenv.StartNamed(b, provider, spec)
}
