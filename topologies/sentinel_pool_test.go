package topologies_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/topologies"
)

// fakeDeployment stands in for a sentinel deployment where no server is needed: the
// pool only lends it, and cannot re-form it.
type fakeDeployment struct{ id int32 }

func (*fakeDeployment) Spec() backend.Spec           { return backend.Spec{Kind: topologies.Sentinel} }
func (*fakeDeployment) Provider() string             { return "fake" }
func (*fakeDeployment) Masters() []topologies.Node   { return nil }
func (*fakeDeployment) Replicas() []topologies.Node  { return nil }
func (*fakeDeployment) Sentinels() []topologies.Node { return nil }
func (*fakeDeployment) Nodes() []topologies.Node     { return nil }
func (*fakeDeployment) Close() error                 { return nil }

// TestSentinelPoolTakenAtOnceStartsNoMoreThanItsSize: trials running side by side
// take from the pool at the same moment; it starts its size of deployments, lends
// each once, and the other takers wait for a comeback instead of starting more.
func TestSentinelPoolTakenAtOnceStartsNoMoreThanItsSize(t *testing.T) {
	const size, takers = 3, 8
	var starts atomic.Int32
	gate := make(chan struct{})
	pool := topologies.NewSentinelPool(size, 0, func(ctx context.Context) (topologies.Topology, error) {
		id := starts.Add(1)
		select {
		case <-gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return &fakeDeployment{id: id}, nil
	})
	defer pool.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	lent := make(chan *topologies.Borrowed, takers)
	for range takers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, err := pool.Take(ctx)
			if err == nil {
				lent <- b
			} else if !errors.Is(err, context.Canceled) {
				t.Errorf("take: %v", err)
			}
		}()
	}
	close(gate)
	seen := map[topologies.Topology]bool{}
	for range size {
		b := <-lent
		if seen[b.Topology] {
			t.Errorf("deployment %v lent twice", b.Topology)
		}
		seen[b.Topology] = true
	}
	cancel() // the other takers wait for a comeback that never comes
	wg.Wait()
	close(lent)
	for b := range lent {
		t.Errorf("a taker beyond the pool's size got %v", b.Topology)
	}
	if n := starts.Load(); n != size {
		t.Errorf("%d deployments started for %d takers at once, want the pool's size %d", n, takers, size)
	}
}
