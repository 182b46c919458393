package redisconn_test

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// BenchmarkAllowListHook is what the always-on allow-list costs a SET NX round trip:
// the same client with and without the hook, against one local redis-server, in one
// run (compare the two lines; their ratio is the cost).
func BenchmarkAllowListHook(b *testing.B) {
	topo := testenv.Start(b, backend.Spec{Kind: topologies.Single})
	addr := topo.Masters()[0].Addr()
	ctx := context.Background()
	opts := redisconn.Options{PoolSize: 1}
	guarded := redisconn.NewClient(addr, "single", opts)
	defer guarded.Close()
	// The same options, no hook: NewClient's client with its hooks taken off is not
	// reachable, so build the bare one the way NewClient does.
	bare := redis.NewClient(&redis.Options{Addr: addr, PoolSize: 1, MaxRetries: -1, Protocol: 2, DisableIdentity: true, PipelinePoolSize: -1})
	defer bare.Close()
	for name, c := range map[string]*redis.Client{"hook=off": bare, "hook=on": guarded} {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if err := c.SetNX(ctx, "lockbench:bench", "t", 0).Err(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("check-only", func(b *testing.B) {
		cmd := redis.NewBoolCmd(ctx, "set", "lockbench:bench", "t", "px", 10000, "nx")
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if err := redisconn.CheckCommand("single", cmd.Args()); err != nil {
				b.Fatal(err)
			}
		}
	})
}
