package sweep_test

import (
	"slices"
	"testing"

	"github.com/lockbench/lockbench/sweep"
	_ "github.com/lockbench/lockbench/topologies/testenv" // registers every store's strategies, the cluster's among them
)

func TestThePresetsMeasureTheClusterWhereItCanRun(t *testing.T) {
	quick, def, update := sweep.QuickConfig(), sweep.DefaultConfig(), sweep.UpdateConfig(true)
	for name, strategies := range map[string][]string{
		"default": def.Sweeps[0].Strategies, "quick": quick.Sweeps[0].Strategies, "update": update.Sweeps[0].Strategies,
	} {
		for _, want := range []string{"single", "cluster", "cluster-wait"} {
			if !slices.Contains(strategies, want) {
				t.Errorf("%s preset lacks %s: %v", name, want, strategies)
			}
		}
	}
	for _, s := range quick.Sweeps {
		if len(s.Network) > 0 && slices.Contains(s.Network, "uniform:1ms") {
			if !slices.Contains(s.Strategies, "single") || slices.Contains(s.Strategies, "cluster") || slices.Contains(s.Strategies, "etcd") {
				t.Errorf("the network sweep holds %v: want the Redis strategies behind the proxies, no cluster", s.Strategies)
			}
		}
	}
	for name, cfg := range map[string]sweep.Config{"default": def, "quick": quick, "update": update} {
		if _, err := cfg.Cells(); err != nil {
			t.Errorf("%s preset does not validate: %v", name, err)
		}
	}
}
