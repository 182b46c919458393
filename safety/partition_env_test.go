package safety

import (
	"context"
	"testing"

	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// containerEnv is testEnv on the container provider: the partition scenarios need nodes
// with networks of their own. It skips (fails under CI=true) where no engine answers.
func containerEnv(t *testing.T, trials int, params Params) *Env {
	t.Helper()
	env := testEnv(t, trials, params)
	p, err := topologies.ProviderFor("container", topologies.Sentinel)
	if err != nil {
		t.Fatal(err)
	}
	if a, ok := p.(topologies.Available); ok {
		if err := a.Available(context.Background()); err != nil {
			testenv.MissingTool(t, err)
		}
	}
	env.Start = func(ctx context.Context, spec topologies.Spec) (topologies.Topology, error) {
		topo, err := p.Start(ctx, spec)
		if err == nil {
			t.Cleanup(func() {
				if err := topo.Close(); err != nil {
					t.Errorf("close %s topology: %v", spec.Kind, err)
				}
			})
		}
		return topo, err
	}
	return env
}
