// Package backend describes lock stores. Each store's folder under backends/ declares
// one Descriptor: the topology kinds it starts, their defaults and validation, what
// they can do, and the strategies that run on each with their place in every list of
// strategies, so that callers ask a kind's capabilities and a strategy's declaration
// instead of naming them. A Catalog holds a set of descriptors; the program's own is
// in backend/linked. Capabilities are interfaces a kind's Can implements
// (capability.go). It is a leaf: it imports nothing of lockbench's but clocks, so
// every layer may ask it.
package backend

// Shape is one kind a store starts.
type Shape struct {
	Kind Kind
	// Rank orders the kinds wherever they are listed (doctor, the unknown-kind error),
	// lowest first: Redis's from one master to Redlock, then etcd, PostgreSQL, ZooKeeper.
	Rank int
	// Can is what the kind's deployments can do: a value implementing the capability
	// interfaces (capability.go) that fit, asked with CanOf; nil for none.
	Can any
	// Defaults sets the kind's zero fields; the fields every kind shares (Masters 1,
	// MasterName) are set after it by Spec.WithDefaults.
	Defaults func(Spec) Spec
	// Validate reports the first of the kind's fields no provider could start; clocks
	// and the appendfsync policy are checked after it by Spec.Validate.
	Validate func(Spec) error
	// NoNetwork says why a run cannot put this kind under a network profile (its
	// clients do not dial through lockbench's proxies); empty when it can.
	NoNetwork string
	// Strategies are those that run on this kind, with what every list of strategies
	// needs to know of them (strategy.go).
	Strategies []Strategy
	// Lease is how its servers round a lease asked for (lease.go); zero: as asked.
	Lease Lease
	store *Descriptor
}

// NetworkProfiles says whether a run can put the kind under a network profile.
func (sh Shape) NetworkProfiles() bool { return sh.NoNetwork == "" }

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
