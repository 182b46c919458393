package lockstest

import (
	"context"
	"testing"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// StartStrategy starts the strategy's own topology and a locker over it, both stopped
// when the test ends.
func StartStrategy(t *testing.T, name string, opts locks.Options) (locks.Locker, topologies.Topology) {
	t.Helper()
	spec, err := locks.TopologyFor(name)
	if err != nil {
		t.Fatal(err)
	}
	topo := testenv.Start(t, spec)
	return NewLocker(t, name, topo, opts), topo
}

// NewLocker is the strategy's locker over topo, closed when the test ends.
func NewLocker(t *testing.T, name string, topo topologies.Topology, opts locks.Options) locks.Locker {
	t.Helper()
	l, err := locks.ForTopology(context.Background(), name, topo, opts)
	if err != nil {
		t.Fatalf("%s locker: %v", name, err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}
