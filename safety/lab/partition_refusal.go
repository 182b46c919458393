package lab

import (
	"errors"
	"fmt"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/topologies"
)

// ErrNeedsPartitions marks a scenario's refusal of a provider that cannot cut links:
// alone it is the run's error; `--scenario all` skips that scenario and says why.
var ErrNeedsPartitions = errors.New("needs network partitions")

// PartitionerOrRefuse is topo's partitioner, or the scenario's refusal naming the provider.
func PartitionerOrRefuse(scenario string, topo topologies.Topology) (topologies.Partitioner, error) {
	p, err := topologies.PartitionerOf(topo)
	if err != nil {
		return nil, fmt.Errorf("%s %w: %w", scenario, ErrNeedsPartitions, err)
	}
	return p, nil
}

// RefuseUnpartitionable is the running scenario's refusal when e says, before anything
// starts, that spec's deployments cannot cut links: no server is started only to be
// refused. Nil when they can, or when e cannot tell.
func (e *Env) RefuseUnpartitionable(spec backend.Spec) error {
	if e.Partitions == nil {
		return nil
	}
	if err := e.Partitions(spec); err != nil {
		return fmt.Errorf("%s %w: %w", e.Scenario(), ErrNeedsPartitions, err)
	}
	return nil
}
