package lab

import (
	"context"
	"errors"
	"fmt"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/topologies"
)

// ErrNeedsPartitions marks a scenario's refusal of a provider that cannot cut links:
// alone it is the run's error; `--scenario all` skips that scenario and says why.
var ErrNeedsPartitions = errors.New("needs network partitions")

// StartPartitionable starts spec's deployment with start and returns it with its
// partitioner, or the running scenario's refusal (ErrNeedsPartitions) of a provider
// that cannot cut links: asked of e before anything starts where e can tell
// (Env.Partitions), else of the deployment, which is then closed.
func (e *Env) StartPartitionable(ctx context.Context, spec backend.Spec, start StartFunc) (
	topologies.Topology, topologies.Partitioner, error) {
	if e.Partitions != nil {
		if err := e.Partitions(spec); err != nil {
			return nil, nil, e.refusePartitions(err)
		}
	}
	topo, err := start(ctx, spec)
	if err != nil {
		return nil, nil, err
	}
	part, err := topologies.PartitionerOf(topo)
	if err != nil {
		topo.Close()
		return nil, nil, e.refusePartitions(err)
	}
	return topo, part, nil
}

func (e *Env) refusePartitions(why error) error {
	return fmt.Errorf("%s %w: %w", e.Scenario(), ErrNeedsPartitions, why)
}
