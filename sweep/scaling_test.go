package sweep

import (
	"testing"

	"github.com/lockbench/lockbench/locks"
)

func TestScalingPresetsExpandToTheirAxes(t *testing.T) {
	want := map[string]int{
		"scaling-redlock-nodes": 3 * 3,  // 3 sizes x 1, 8, 64 clients
		"scaling-wait-replicas": 5 * 3,  // 5 shapes x 1, 8, 64 clients
		"scaling-hold":          4 * 4,  // 4 strategies x 4 holds
		"scaling-clients":       4 * 11, // 4 strategies x 1..1024
	}
	for name, cfg := range ScalingPresets() {
		cells, err := cfg.Cells()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(cells) != want[name] {
			t.Errorf("%s: %d cells, want %d", name, len(cells), want[name])
		}
	}
}

func TestScalingStrategiesRunOnTheirTopologies(t *testing.T) {
	for name, n := range RedlockSizes {
		spec, err := locks.TopologyFor(name)
		if err != nil || spec.WithDefaults().Masters != n {
			t.Errorf("%s: %+v %v, want %d masters", name, spec, err, n)
		}
	}
	for name, shape := range WaitShapes {
		spec, err := locks.TopologyFor(name)
		if err != nil || spec.WithDefaults().Replicas != shape[0] {
			t.Errorf("%s: %+v %v, want %d replicas", name, spec, err, shape[0])
		}
	}
}
