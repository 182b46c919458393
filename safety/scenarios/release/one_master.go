package release

import (
	"context"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
)

// variant is one way a release scenario runs: its name, what it does, the measure its
// table leads with and the claims the write-up makes of it.
func variant(name, what string, headline results.Measure, claims ...results.Claim) lab.Variant {
	return lab.Variant{Variant: &results.Variant{Name: name, Description: what, Measure: headline, Claims: claims}}
}

// onOneMaster runs every variant's trials on one Redis master it starts and stops.
func onOneMaster[V interface{ Result() *results.Variant }](ctx context.Context, env *lab.Env, variants []V,
	trial func(ctx context.Context, topo topologies.Topology, v V, t *lab.Trial) error) (*results.Report, error) {
	topo, err := env.StartTopology(ctx, backend.Spec{Kind: topologies.Single})
	if err != nil {
		return nil, err
	}
	defer topo.Close()
	return lab.RunTrials(ctx, env, variants, func(ctx context.Context, v V, t *lab.Trial) error {
		return trial(ctx, topo, v, t)
	})
}
