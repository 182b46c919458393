package lockstest

import (
	"context"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// StartStrategy starts the strategy's own topology and a locker over it, both stopped
// when the test ends.
func StartStrategy(t *testing.T, name string, opts locks.Options) (locks.Locker, topologies.Topology) {
	t.Helper()
	topo := testenv.Start(t, specOf(t, name))
	return NewLocker(t, name, topo, opts), topo
}

// specOf is the deployment the named strategy runs on; an unknown name fails t.
func specOf(t *testing.T, name string) backend.Spec {
	t.Helper()
	spec, err := locks.TopologyFor(name)
	if err != nil {
		t.Fatal(err)
	}
	return spec
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

// StartStrategyAs is StartStrategy with default options, for a test that needs the
// topology as its own type T (a *pgtopo.Server, a *zktopo.Ensemble, ...).
func StartStrategyAs[T topologies.Topology](t *testing.T, name string) (locks.Locker, T) {
	t.Helper()
	l, topo := StartStrategy(t, name, locks.Options{})
	return l, topo.(T)
}

// EachStrategy runs test as a subtest on every strategy of names, in parallel, each
// over its own topology (a T) with default options: test may fault it.
func EachStrategy[T topologies.Topology](t *testing.T, names []string,
	test func(t *testing.T, name string, l locks.Locker, topo T)) {
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			l, topo := StartStrategyAs[T](t, name)
			test(t, name, l, topo)
		})
	}
}

// SharedStrategy is the strategy's locker over the package's shared topology for it
// (testenv.Shared): for tests that do not fault the servers, on keys of their own.
func SharedStrategy(t *testing.T, name string, opts locks.Options) (locks.Locker, topologies.Topology) {
	t.Helper()
	topo := testenv.Shared(t, specOf(t, name))
	return NewLocker(t, name, topo, opts), topo
}

// ConformanceOf runs Conformance (8 workers, 15 increments each) on every strategy of
// names, in parallel, each on the package's shared topology for it with default options.
func ConformanceOf(t *testing.T, names ...string) {
	conformanceOf(t, leaseStore, names...)
}

// ConformanceOfAt is ConformanceOf as ConformanceAt runs it: the counter's locks at ttl,
// for a lease that is a session, which one slow reply closes (ZooKeeper's).
func ConformanceOfAt(t *testing.T, ttl time.Duration, names ...string) {
	conformanceOf(t, consensusStore(ttl), names...)
}

func conformanceOf(t *testing.T, plan storePlan, names ...string) {
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			l, _ := SharedStrategy(t, name, locks.Options{})
			conformance(t, l, plan, 8, 15)
		})
	}
}
