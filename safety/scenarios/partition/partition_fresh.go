package partition

import (
	"context"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
)

// freshDeployments gives every trial a deployment of its own (a failed-over one is
// never lent again). The first is started before any trial, so that a provider that
// cannot partition is refused at once; it serves the first trial if it fits its spec.
type freshDeployments struct {
	start func(ctx context.Context, spec backend.Spec) (topologies.Topology, error)
	fits  func(running, wanted backend.Spec) bool
	first topologies.Topology
}

// startFirst starts spec's deployment, or returns the scenario's refusal of a provider
// that cannot partition (lab.ErrNeedsPartitions).
func startFirst(ctx context.Context, env *lab.Env, spec backend.Spec, start lab.StartFunc,
	fits func(running, wanted backend.Spec) bool) (*freshDeployments, error) {
	topo, _, err := env.StartPartitionable(ctx, spec, start)
	if err != nil {
		return nil, err
	}
	return &freshDeployments{start: start, fits: fits, first: topo}, nil
}

// forTrial is the trial's deployment, for the caller to close: the first one when it
// is still unused and fits spec, else a new one.
func (f *freshDeployments) forTrial(ctx context.Context, spec backend.Spec) (topologies.Topology, error) {
	topo := f.first
	f.first = nil
	if topo != nil && f.fits(topo.Spec(), spec) {
		return topo, nil
	}
	if topo != nil {
		topo.Close()
	}
	topo, err := f.start(ctx, spec)
	if err != nil {
		return nil, lab.Failed("setup", err)
	}
	return topo, nil
}

// closeUnused closes the first deployment if no trial took it.
func (f *freshDeployments) closeUnused() {
	if f.first != nil {
		f.first.Close()
		f.first = nil
	}
}
