package locks

import (
	"context"
	"fmt"
	"slices"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/internal/registry"
	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/topologies"
)

// Options configure every strategy; each reads the part that concerns it.
type Options struct {
	RedisOptions
	Wait    WaitOptions    // Replicas, Timeout
	Redlock RedlockOptions // Tries, DriftFactor, FailFast...
	Rueidis RueidisOptions // TryNextAfter
}

// Builder makes a strategy's locker over a running topology of the strategy's kind.
type Builder func(ctx context.Context, topo topologies.Topology, opts Options) (Locker, error)

// strategy knows the deployment it runs on, how to build its locker from it, and what
// its client does on its own.
type strategy struct {
	topology backend.Spec
	build    Builder
	traits   []Trait
}

// Trait is what a strategy's client does that callers must know before they build it.
type Trait string

// ExtendsItself: the library keeps a held key alive from goroutines of its own client
// (rueidislock's watchdog), so stopping the caller's code alone stops no extension: only
// a pause of the whole process would.
const ExtendsItself Trait = "extends-itself"

var strategies = registry.New[strategy]("strategy")

// Register adds a strategy, from the init of its store's lockers (backends/<store>/...),
// with the traits of its client. It panics on a duplicate name, as registering the same
// driver twice is a programming error.
func Register(name string, topology backend.Spec, build Builder, traits ...Trait) {
	strategies.Add(name, strategy{topology: topology, build: build, traits: traits})
}

// Has says whether the named strategy's client has trait (false for an unknown name).
func Has(name string, trait Trait) bool {
	s, err := lookup(name)
	return err == nil && slices.Contains(s.traits, trait)
}

// Strategies lists the strategy names, sorted.
func Strategies() []string { return strategies.Names() }

func lookup(name string) (strategy, error) { return strategies.Get(name) }

// TopologyFor returns the deployment the named strategy runs on.
func TopologyFor(name string) (backend.Spec, error) {
	s, err := lookup(name)
	return s.topology, err
}

// ForTopology builds the named strategy's locker over a running topology.
func ForTopology(ctx context.Context, name string, topo topologies.Topology, opts Options) (Locker, error) {
	s, err := lookup(name)
	if err != nil {
		return nil, err
	}
	if topo.Spec().Kind != s.topology.Kind {
		return nil, fmt.Errorf("strategy %s needs a %s topology, got %s", name, s.topology.Kind, topo.Spec().Kind)
	}
	if opts.Access == (redisconn.Access{}) {
		opts.Access = topologies.AccessOf(topo)
	}
	if opts.KeyPrefix == "" {
		opts.KeyPrefix = topologies.KeyPrefixOf(topo)
	}
	if opts.SentinelAccess == (redisconn.Access{}) {
		opts.SentinelAccess = topologies.SentinelAccessOf(topo)
	}
	return s.build(ctx, topo, opts)
}
