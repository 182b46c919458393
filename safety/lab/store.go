package lab

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/internal/registry"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// Store is how a scenario reaches the lock service under test, whatever it is (Jepsen
// swaps its db the same way): one adapter per kind of deployment, in its store's
// folder. A scenario asks for the capabilities it needs (Failover, KeyReader) and runs
// on every store of the locks registry that has them.
type Store interface {
	// Strategy is the locks registry name the store runs.
	Strategy() string
	// Spec is the deployment to start; scenarios may tune its timings.
	Spec() backend.Spec
	// Locker is one client's locker over topo. With fenced, its leases carry a fence:
	// the strategy's own where it has one, otherwise a counter on the primary.
	Locker(ctx context.Context, topo topologies.Topology, fenced bool) (locks.Locker, error)
	// FenceSource says where Locker's fences come from, for the reports.
	FenceSource() string
	// GrantedTTL is the lease the store really grants when asked for ttl (etcd grants
	// whole seconds, and no less than about 1.5 election timeouts).
	GrantedTTL(ttl time.Duration) time.Duration
}

// Failover is a store with one primary that can change: a sentinel master, a raft leader.
type Failover interface {
	Store
	// Primary is the node taking writes now.
	Primary(ctx context.Context, topo topologies.Topology) (topologies.Node, error)
	// AwaitPromotion waits until a node other than old is primary, or ctx ends.
	AwaitPromotion(ctx context.Context, topo topologies.Topology, old topologies.Node) (topologies.Node, error)
}

// FailoverReader is a store that fails over and reads the key on the new primary: what a
// scenario that proves the key's fate across a promotion asks.
type FailoverReader interface {
	Failover
	KeyReader
}

// KeyReader reads the lock key on the current primary, as the next client would find it.
type KeyReader interface {
	ReadKey(ctx context.Context, topo topologies.Topology, primary topologies.Node, key string) (redisadmin.KeyState,
		error)
}

// StoreMaker builds the adapter of one topology kind for a strategy of that kind.
type StoreMaker func(strategy string, spec backend.Spec) Store

var storeMakers = registry.New[StoreMaker]("store adapter for topology kind")

// RegisterStore makes kind's strategies runnable in the scenarios: called by
// backends/store when the store registers (its adapter lives in its own folder).
func RegisterStore(kind backend.Kind, build StoreMaker) {
	storeMakers.Add(string(kind), build)
}

// KeyedFailover is a store whose primary depends on the key: a Redis Cluster, where the
// master of the key's slot takes its writes and one of its own replicas replaces it.
type KeyedFailover interface {
	Store
	KeyReader
	// PrimaryFor is the node taking writes for key now.
	PrimaryFor(ctx context.Context, topo topologies.Topology, key string) (topologies.Node, error)
	// ReplicasOf are the nodes replicating primary now.
	ReplicasOf(ctx context.Context, topo topologies.Topology, primary topologies.Node) ([]topologies.Node, error)
	// AwaitPromotion waits until a replica of old reports itself master, or ctx ends.
	AwaitPromotion(ctx context.Context, topo topologies.Topology, old topologies.Node) (topologies.Node, error)
	// WaitLocker is the store's locker that waits for replicas acknowledgements (WAIT n).
	WaitLocker(ctx context.Context, topo topologies.Topology, replicas int, timeout time.Duration) (locks.Locker, error)
}

// Promoter is what both kinds of failover share: waiting for a node other than old to
// take its writes (a sentinel master, a raft leader, a cluster replica of old).
type Promoter interface {
	AwaitPromotion(ctx context.Context, topo topologies.Topology, old topologies.Node) (topologies.Node, error)
}

// keyedPromoter is a Promoter that can also follow the key whose primary died (a
// cluster whose paused replicas cannot say whose replicas they are).
type keyedPromoter interface {
	AwaitPromotionOf(ctx context.Context, topo topologies.Topology, old topologies.Node, key string) (topologies.Node,
		error)
}

// PrimaryOf is the node taking key's writes now: the store's one primary, or, on a
// store whose primary depends on the key, the master of key's slot.
func PrimaryOf(ctx context.Context, s Store, topo topologies.Topology, key string) (topologies.Node, error) {
	switch st := s.(type) {
	case Failover:
		return st.Primary(ctx, topo)
	case KeyedFailover:
		return st.PrimaryFor(ctx, topo, key)
	}
	return nil, fmt.Errorf("store %s cannot fail over", s.Strategy())
}

// IsKeyedFailover is a store whose primary depends on the key.
func IsKeyedFailover(s Store) bool { _, ok := s.(KeyedFailover); return ok }

// StoreFor returns the adapter for a strategy of the locks registry.
func StoreFor(strategy string) (Store, error) {
	spec, err := locks.TopologyFor(strategy)
	if err != nil {
		return nil, err
	}
	build, err := storeMakers.Get(string(spec.Kind))
	if err != nil {
		return nil, fmt.Errorf("strategy %s: %w", strategy, err)
	}
	// Scenarios pick stores by what their kind declares: an adapter without its
	// descriptor would silently fit nothing.
	if _, err := linked.Catalog().Lookup(spec.Kind); err != nil {
		return nil, fmt.Errorf(
			"strategy %s: its store's descriptor is not registered (import its backends/<store> package): %w", strategy, err)
	}
	return build(strategy, spec), nil
}

// StrategiesWhere lists the registry's strategies whose store passes fits, sorted.
func StrategiesWhere(fits func(Store) bool) []string {
	var out []string
	for _, name := range locks.Strategies() {
		if s, err := StoreFor(name); err == nil && fits(s) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// StoresParam declares a scenario's strategies param: the default list, checked
// against the strategies that fit when the run starts (the registry fills at init).
func StoresParam(name string, def []string, fits func(Store) bool, help string) Param {
	return Param{Name: name, Default: strings.Join(def, ","), Help: help + " (any strategy whose store fits: see " +
		"--list)", Parse: func(s string) (any, string) {
		allowed := StrategiesWhere(fits)
		var out []Store
		for _, part := range strings.Split(s, ",") {
			part = strings.TrimSpace(part)
			st, err := StoreFor(part)
			if err != nil || !fits(st) {
				return nil, "a comma-separated list of " + strings.Join(allowed, ", ")
			}
			out = append(out, st)
		}
		return out, ""
	}}
}

// Stores reads a param declared with StoresParam.
func (v Values) Stores(name string) []Store { return get[[]Store](v, name) }

// OneStoreParam is StoresParam for a scenario whose variants are one store's and do not
// name it: it takes a single strategy, so two stores' variants cannot share a name.
func OneStoreParam(name, def string, fits func(Store) bool, help string) Param {
	p := StoresParam(name, []string{def}, fits, help)
	parseList := p.Parse
	p.Help = help + " (one strategy whose store fits: see --list)"
	p.Parse = func(s string) (any, string) {
		v, want := parseList(s)
		if want != "" || len(v.([]Store)) != 1 {
			return nil, "one of " + strings.Join(StrategiesWhere(fits), ", ")
		}
		return v, ""
	}
	return p
}

// Store reads a param declared with OneStoreParam.
func (v Values) Store(name string) Store { return v.Stores(name)[0] }

// AnyStore fits every store.
func AnyStore(Store) bool { return true }

// IsConsensusFailover is a store whose members agree each write by a majority and
// elect a new leader when it dies (etcd, ZooKeeper), as its kind declares.
func IsConsensusFailover(s Store) bool {
	return IsFailover(s) && backend.KindIs[backend.Consensus](linked.Catalog(), s.Spec().Kind)
}

// IsFailover is a store that can fail over.
func IsFailover(s Store) bool { _, ok := s.(Failover); return ok }

// PromotesRedisReplica is a store whose one primary fails over to a replica that got
// its keys by replication, all over the Redis protocol (its kind a backend.Failover and
// a backend.RedisProtocol), so a scenario can pause, cut and configure its nodes with
// Redis commands.
func PromotesRedisReplica(s Store) bool {
	k, stores := s.Spec().Kind, linked.Catalog()
	return IsFailover(s) && backend.KindIs[backend.Failover](stores, k) && backend.KindIs[backend.RedisProtocol](stores, k)
}
