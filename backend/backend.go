// Package backend describes lock stores. Each store's folder under backends/ declares
// one Descriptor: the topology kinds it starts, their defaults and validation, what
// they can do, and the strategies that run on each with their place in every list of
// strategies, so that callers ask a kind's capabilities and a strategy's declaration
// instead of naming them. A Catalog holds a set of descriptors; the program's own is
// in backend/linked. It is a leaf: it imports nothing of lockbench's but clocks, so
// every layer may ask it.
package backend

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

// Flavours are the server flavours the kind's store runs (Descriptor.Flavours).
func (sh Shape) Flavours() []string { return sh.descriptor().Flavours }

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
	// Flavours are the servers its kinds run on when Spec.Server names one (Redis's:
	// redis, valkey); none: its kinds take no Spec.Server.
	Flavours []string
	Shapes   []Shape
	// Axes are its scaling presets that sweep a deployment's size (its strategies'
	// Scaling places them on one).
	Axes []ScalingAxis
}
