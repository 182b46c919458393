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
	redisconn.Options
	Wait    WaitOptions    // Replicas, Timeout
	Redlock RedlockOptions // Tries, DriftFactor, FailFast...
	Rueidis RueidisOptions // TryNextAfter
}

// Builder makes a strategy's locker over a running topology of the strategy's kind.
type Builder func(ctx context.Context, topo topologies.Topology, opts Options) (Locker, error)

// Strategy is one way of taking a lock, declared once, in one file of its store's
// folder: what every list knows of it, the deployment it runs on, and how its locker is
// built. A store registers its strategies with the rest of itself (backends/store).
type Strategy struct {
	backend.Strategy // its name and its place in every list of strategies
	// Spec is the deployment it runs on: its kind, and the sizes it needs.
	Spec backend.Spec
	// Build makes its locker over a running topology; nil for a lock-free way, whose
	// updates the store judges (package updates builds those).
	Build Builder
	// Addressed makes its locker at servers a scenario picked; nil when none may.
	Addressed AddressedBuilder
	// Commands are all its go-redis client may send (redisconn's allow-list); nil for a
	// client that is not go-redis's.
	Commands []string
	// Traits are what its client does on its own that callers must know.
	Traits []Trait
}

// Trait is what a strategy's client does that callers must know before they build it.
type Trait string

// ExtendsItself: the library keeps a held key alive from goroutines of its own client
// (rueidislock's watchdog), so stopping the caller's code alone stops no extension: only
// a pause of the whole process would.
const ExtendsItself Trait = "extends-itself"

var strategies = registry.New[Strategy]("strategy")

// Register makes s buildable by name, at topologies and, with Addressed, at addresses,
// and gives its go-redis client its allow-list. A lock-free way (no Build) has nothing
// here to register. A name registered twice is a programming error and panics.
func Register(s Strategy) {
	if s.Build == nil {
		return
	}
	strategies.Add(s.Name, s)
	if s.Addressed != nil {
		addressed.Add(s.Name, s.Addressed)
	}
	if s.Commands != nil {
		redisconn.Allow(s.Name, s.Commands)
	}
}

// Has says whether the named strategy's client has trait (false for an unknown name).
func Has(name string, trait Trait) bool {
	s, err := lookup(name)
	return err == nil && slices.Contains(s.Traits, trait)
}

// Strategies lists the strategy names, sorted.
func Strategies() []string { return strategies.Names() }

func lookup(name string) (Strategy, error) { return strategies.Get(name) }

// TopologyFor returns the deployment the named strategy runs on.
func TopologyFor(name string) (backend.Spec, error) {
	s, err := lookup(name)
	return s.Spec, err
}

// ForTopology builds the named strategy's locker over a running topology.
func ForTopology(ctx context.Context, name string, topo topologies.Topology, opts Options) (Locker, error) {
	s, err := lookup(name)
	if err != nil {
		return nil, err
	}
	if topo.Spec().Kind != s.Spec.Kind {
		return nil, fmt.Errorf("strategy %s needs a %s topology, got %s", name, s.Spec.Kind, topo.Spec().Kind)
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
	return s.Build(ctx, topo, opts)
}
