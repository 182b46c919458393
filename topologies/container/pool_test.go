package container_test

import (
	"context"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/topologies"
	. "github.com/lockbench/lockbench/topologies/container"
)

// The safety lab's sentinel pool cannot re-form container deployments: it must start
// fresh ones and still close, instead of hanging on comebacks nobody takes.
func TestContainerSentinelPoolClosesWhenReformIsRefused(t *testing.T) {
	t.Parallel()
	requireEngine(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	pool := topologies.NewSentinelPool(2, 10*time.Second, func(ctx context.Context) (topologies.Topology, error) {
		return Provider{}.Start(ctx, backend.Spec{Kind: topologies.Sentinel, Replicas: 1, Sentinels: 1})
	})
	for i := 0; i < 4; i++ {
		b, err := pool.Take(ctx)
		if err != nil {
			pool.Close()
			t.Fatalf("loan %d: %v", i, err)
		}
		pool.Return(b)
	}
	closed := make(chan error, 1)
	go func() { closed <- pool.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Errorf("close: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("the pool's Close hung")
	}
}
