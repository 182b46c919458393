package lab

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
)

// A store adapter whose kind has no descriptor is refused by name, not left to fit no
// scenario in silence (etcd's adapter once registered without its descriptor).
func TestStoreForRefusesAKindWithoutDescriptor(t *testing.T) {
	const kind = "lab-test-undescribed"
	locks.Register(fakeStrategy(kind, kind))
	RegisterStore(kind, func(string, backend.Spec) Store { return nil }) // refused before it is built
	_, err := StoreFor(kind)
	if err == nil || !strings.Contains(err.Error(), "descriptor is not registered") {
		t.Fatalf("StoreFor(%s) = %v, want the missing descriptor named", kind, err)
	}
	for _, s := range StrategiesWhere(AnyStore) {
		if s == kind {
			t.Errorf("StrategiesWhere lists %s, whose store cannot be built", kind)
		}
	}
}

// fakeStore is a store of a kind registered by a test; it never starts anything.
type fakeStore struct {
	strategy string
	spec     backend.Spec
}

func (s fakeStore) Strategy() string                         { return s.strategy }
func (s fakeStore) Spec() backend.Spec                       { return s.spec }
func (s fakeStore) FenceSource() string                      { return "none" }
func (fakeStore) GrantedTTL(ttl time.Duration) time.Duration { return ttl }
func (fakeStore) Locker(context.Context, topologies.Topology, bool) (locks.Locker, error) {
	return nil, nil
}

// registerFakeKind registers kind with caps, its store adapter, and strategies on it.
func registerFakeKind(kind backend.Kind, can any, strategies ...string) {
	linked.Register(backend.Descriptor{Store: string(kind), Shapes: []backend.Shape{{Kind: kind, Rank: 2000, Can: can}}})
	RegisterStore(kind, func(strategy string, spec backend.Spec) Store { return fakeStore{strategy, spec} })
	for _, name := range strategies {
		locks.Register(fakeStrategy(name, kind))
	}
}

// fakeStrategy is a strategy called name on kind whose locker is never built.
func fakeStrategy(name string, kind backend.Kind) locks.Strategy {
	return locks.Strategy{Strategy: backend.Strategy{Name: name}, Spec: backend.Spec{Kind: kind},
		Build: func(context.Context, topologies.Topology, locks.Options) (locks.Locker, error) { return nil, nil }}
}

// A one-store param takes one strategy whose store fits, by what its kind declares,
// and refuses a list or a store without the capability, naming the ones that fit.
func TestOneStoreParamTakesOneFittingStrategy(t *testing.T) {
	registerFakeKind("lab-test-fenced", ownFence{}, "lab-test-fenced-a", "lab-test-fenced-b")
	registerFakeKind("lab-test-plain", nil, "lab-test-plain")
	fenced := func(s Store) bool { return backend.KindIs[backend.OwnFence](linked.Catalog(), s.Spec().Kind) }
	p := OneStoreParam("strategies", "lab-test-fenced-a", fenced, "the store")
	vals, err := Parse("s", []Param{p}, nil)
	if err != nil || vals.Store("strategies").Strategy() != "lab-test-fenced-a" {
		t.Fatalf("default: %v, %v", vals, err)
	}
	if v, want := p.Parse("lab-test-fenced-b"); want != "" || v.([]Store)[0].Strategy() != "lab-test-fenced-b" {
		t.Errorf("another fitting strategy: %v, want %q", v, want)
	}
	for _, bad := range []string{"lab-test-fenced-a,lab-test-fenced-b", "lab-test-plain", "nosuch"} {
		_, want := p.Parse(bad)
		if !strings.Contains(want, "lab-test-fenced-a, lab-test-fenced-b") || strings.Contains(want, "lab-test-plain") {
			t.Errorf("%s: want %q, which should name the fitting strategies only", bad, want)
		}
	}
}

// ownFence is a test kind whose grants carry a number of its own.
type ownFence struct{}

func (ownFence) OwnFence() string { return "a test counter" }
