package suite

import (
	"context"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
)

// CutProvider starts the topologies of the partition scenarios, its engine checked once.
type CutProvider struct {
	name    string
	check   func() error
	startOn lab.StartFunc
	checked bool
	err     error
}

// PartitionFallback is where a run of several scenarios runs those that cut links when
// no provider was given (processes cannot partition): containers, once check says an
// engine answers; nil when a provider was given, and they are skipped.
func PartitionFallback(provider string, check func() error) *CutProvider {
	if provider != "" {
		return nil
	}
	return &CutProvider{name: "container", check: check, startOn: startOn("container")}
}

// start is the fallback's StartFunc, or the reason there is none.
func (c *CutProvider) start() (lab.StartFunc, error) {
	if !c.checked {
		c.checked, c.err = true, c.check()
	}
	return c.startOn, c.err
}

// onFlavour is start with every spec on server's flavour where its kind has flavours.
func onFlavour(start lab.StartFunc, server string) lab.StartFunc {
	return func(ctx context.Context, spec backend.Spec) (topologies.Topology, error) {
		return start(ctx, topologies.OnFlavour(spec, server))
	}
}

// startOn starts every topology on the provider named, or on each kind's default
// provider when name is "".
func startOn(name string) lab.StartFunc {
	return func(ctx context.Context, spec backend.Spec) (topologies.Topology, error) {
		p, err := providerFor(name, spec.Kind)
		if err != nil {
			return nil, err
		}
		return p.Start(ctx, spec)
	}
}

// partitionsOn says whether startOn(name)'s topologies of a spec can cut links, before
// any starts.
func partitionsOn(name string) func(backend.Spec) error {
	return func(spec backend.Spec) error { return topologies.CanPartitionOn(name, spec.Kind) }
}

// providerFor is the provider named, or kind's default provider when name is "".
func providerFor(name string, kind backend.Kind) (topologies.Provider, error) {
	if name == "" {
		return topologies.DefaultProvider(kind)
	}
	return topologies.ProviderNamed(name)
}
