package bench_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/lockbench/lockbench/bench"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// BenchmarkAppendFsync prices what a host crash keeps: the single and wait strategies'
// cycles on servers with an append-only file under each policy, side by side in one
// run (docs/persistence.md reads their ratios, never one policy's figure alone).
func BenchmarkAppendFsync(b *testing.B) {
	for _, strategy := range []string{"single", "wait"} {
		for _, policy := range []string{"no", "everysec", "always"} {
			b.Run(fmt.Sprintf("strategy=%s/appendfsync=%s", strategy, policy), func(b *testing.B) {
				spec, err := locks.TopologyFor(strategy)
				if err != nil {
					b.Fatal(err)
				}
				spec.AppendFsync = policy
				topo := testenv.Start(b, spec)
				for _, clients := range []int{1, 8} {
					b.Run(fmt.Sprintf("clients=%d/keys=%d", clients, clients), func(b *testing.B) {
						benchmarkCycles(b, strategy, topo, bench.Load{
							Clients: clients, Keys: clients, TTL: 10 * time.Second, RetryDelay: retryDelay,
							MaxRetryDelay: maxRetryDelay,
							KeyPrefix:     fmt.Sprintf("bench:fsync-%s:%s:c%d:", policy, strategy, clients),
						})
					})
				}
			})
		}
	}
}
