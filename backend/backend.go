// Package backend is the registry of lock stores. Each store's folder under backends/
// registers one Descriptor: the topology kinds it starts, their defaults and
// validation, what they can do, and the strategies that run on each with their place
// in every list of strategies, so that callers ask a kind's capabilities and a
// strategy's declaration instead of naming them. It is a leaf: it imports nothing of
// lockbench's but clocks, so every layer may ask it.
package backend

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Capability is something a kind's deployments can do, that callers ask about.
type Capability string

const (
	// Consensus: a majority of members agrees each write before it is acknowledged.
	Consensus Capability = "consensus"
	// OwnFence: a grant carries a number the store itself makes grow (a revision, a
	// sequence node, a row version), so it can fence writes without a second counter.
	OwnFence Capability = "own-fence"
	// CounterFence: one Redis master whose INCR can number grants; a failover can hand
	// a number out again.
	CounterFence Capability = "counter-fence"
	// Replication: replicas copy each master asynchronously (Spec.Replicas).
	Replication Capability = "replication"
	// Failover: sentinels watch the master and promote a replica (Spec.Sentinels).
	Failover Capability = "failover"
	// RedisProtocol: the masters answer Redis commands (workers' rendezvous, INCR).
	RedisProtocol Capability = "redis-protocol"
	// IndependentMajority: independent masters, none replicating another; a client
	// holds the lock once a majority granted it (Redlock, Spec.Masters).
	IndependentMajority Capability = "independent-majority"
	// NetworkProfiles: its clients dial through lockbench's proxies, so a run can
	// inject a network profile's delay and loss (the others say why not in NoNetwork).
	NetworkProfiles Capability = "network-profiles"
	// AwaitsEveryNode, a strategy's own: on independent masters, its client returns only
	// once every node answered, not at the first majority (redsync without fail-fast), so
	// no SET of its grant is still in flight when it returns.
	AwaitsEveryNode Capability = "awaits-every-node"
	// BaselineCommand, a strategy's own: its acquire is the one command bench's
	// redis-benchmark baseline times (SET NX PX on one master), so the benchmark table
	// prices it as a multiple of that baseline.
	BaselineCommand Capability = "baseline-command"
)

// Shape is one kind a store starts.
type Shape struct {
	Kind Kind
	// Rank orders the kinds wherever they are listed (doctor, the unknown-kind error),
	// lowest first: Redis's from one master to Redlock, then etcd, PostgreSQL, ZooKeeper.
	Rank         int
	Capabilities []Capability
	// Defaults sets the kind's zero fields; the fields every kind shares (Masters 1,
	// MasterName) are set after it by Spec.WithDefaults.
	Defaults func(Spec) Spec
	// Validate reports the first of the kind's fields no provider could start; clocks
	// and the appendfsync policy are checked after it by Spec.Validate.
	Validate func(Spec) error
	// NoNetwork says why a run cannot put this kind under a network profile; empty
	// when it has NetworkProfiles.
	NoNetwork string
	// Strategies are those that run on this kind, with what every list of strategies
	// needs to know of them (strategy.go).
	Strategies []Strategy
	// Lease is how its servers round a lease asked for (lease.go); zero: as asked.
	Lease Lease
	store *Descriptor
}

// Has says whether the shape declared c.
func (sh Shape) Has(c Capability) bool {
	for _, have := range sh.Capabilities {
		if have == c {
			return true
		}
	}
	return false
}

// Store names the store that registered the shape ("redis").
func (sh Shape) Store() string { return sh.descriptor().Store }

// Server is what the shape's servers run on when started on this machine.
func (sh Shape) Server() Requirement { return sh.descriptor().Server }

// ImageFromHost says whether the store's container image is built from this
// machine's install of its Server.
func (sh Shape) ImageFromHost() bool { return sh.descriptor().ImageFromHost }

// descriptor is the registering store's, or an empty one for a shape never registered.
func (sh Shape) descriptor() *Descriptor {
	if sh.store == nil {
		return &Descriptor{}
	}
	return sh.store
}

// Requirement is something outside a store's Go code that its servers run on.
type Requirement struct {
	Name    string // shown to the user: "ZooKeeper (Java and zookeeper.jar)"
	Install string // the line that installs it: "apt-get install zookeeper"; empty when built in
	// Find returns where it is, or why it is missing; it starts nothing.
	Find func() (string, error)
	// Version reads the found install's version (it may run it); "" when unreadable.
	Version func() string
}

// Descriptor is what one store registers: its name, what its servers need, and the
// kinds it starts with the strategies that run on each.
type Descriptor struct {
	Store         string // the folder under backends/, e.g. "redis"
	Server        Requirement
	ImageFromHost bool // its container image copies Server from this machine
	Shapes        []Shape
	// Axes are its scaling presets that sweep a deployment's size (its strategies'
	// Scaling places them on one).
	Axes []ScalingAxis
}

// set holds registered descriptors; one process-wide set is filled by init functions.
type set struct {
	mu         sync.RWMutex
	stores     map[string]bool
	shapes     map[Kind]Shape
	strategies map[string]Strategy
	positions  map[int]string // who holds each position
	axes       []ScalingAxis
}

func newSet() *set {
	return &set{stores: map[string]bool{}, shapes: map[Kind]Shape{}, strategies: map[string]Strategy{}, positions: map[int]string{}}
}

var registered = newSet()

// Register adds a store's descriptor; a store or kind registered twice is a
// programming error and panics, as does a descriptor that names no kind.
func Register(d Descriptor) {
	if err := registered.add(d); err != nil {
		panic(err)
	}
}

func (s *set) add(d Descriptor) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d.Store == "" || len(d.Shapes) == 0 {
		return fmt.Errorf("backend: a descriptor needs a store name and at least one kind (store %q, %d kinds)", d.Store, len(d.Shapes))
	}
	if s.stores[d.Store] {
		return fmt.Errorf("backend: store registered twice: %s", d.Store)
	}
	for i, sh := range d.Shapes {
		if sh.Kind == "" {
			return fmt.Errorf("backend: store %s: kind %d has no name", d.Store, i)
		}
		if prev, dup := s.shapes[sh.Kind]; dup {
			return fmt.Errorf("backend: kind %s registered twice (by %s and %s)", sh.Kind, prev.Store(), d.Store)
		}
	}
	if err := s.checkStrategies(d); err != nil {
		return err
	}
	if err := s.checkAxes(d); err != nil {
		return err
	}
	s.axes = append(s.axes, d.Axes...)
	desc := d
	for _, sh := range d.Shapes {
		sh.store = &desc
		s.shapes[sh.Kind] = sh
		s.addStrategies(sh)
	}
	s.stores[d.Store] = true
	return nil
}

func (s *set) lookup(k Kind) (Shape, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	sh, ok := s.shapes[k]
	if !ok {
		names := make([]string, 0, len(s.shapes))
		for _, sh := range s.sortedLocked() {
			names = append(names, string(sh.Kind))
		}
		known := strings.Join(names, ", ")
		if known == "" {
			known = "none registered (import backends/all)"
		}
		return Shape{}, fmt.Errorf("topology kind %q: want one of %s", k, known)
	}
	return sh, nil
}

// sortedLocked lists the shapes by rank, then kind.
func (s *set) sortedLocked() []Shape {
	out := make([]Shape, 0, len(s.shapes))
	for _, sh := range s.shapes {
		out = append(out, sh)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Rank != out[j].Rank {
			return out[i].Rank < out[j].Rank
		}
		return out[i].Kind < out[j].Kind
	})
	return out
}

func (s *set) with(c Capability) []Kind {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []Kind
	for _, sh := range s.sortedLocked() {
		if c == "" || sh.Has(c) {
			out = append(out, sh.Kind)
		}
	}
	return out
}

// Lookup returns the registered shape of kind k, or an error naming every known kind.
func Lookup(k Kind) (Shape, error) { return registered.lookup(k) }

// Kinds lists every registered kind, in rank order.
func Kinds() []Kind { return registered.with("") }

// With lists the kinds that declared c, in rank order.
func With(c Capability) []Kind { return registered.with(c) }

// Has says whether kind k is registered and declared c.
func Has(k Kind, c Capability) bool {
	sh, err := Lookup(k)
	return err == nil && sh.Has(c)
}
