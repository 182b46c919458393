package sweep

import "testing"

func TestScalingPresetsExpandToTheirAxes(t *testing.T) {
	want := map[string]int{
		"scaling-redlock-nodes": 3 * 3,  // 3 sizes x 1, 8, 64 clients
		"scaling-wait-replicas": 5 * 3,  // 5 shapes x 1, 8, 64 clients
		"scaling-hold":          4 * 4,  // 4 strategies x 4 holds
		"scaling-clients":       4 * 11, // 4 strategies x 1..1024
	}
	presets := ScalingPresets()
	if len(presets) != len(want) {
		t.Errorf("%d presets, want %d: %v", len(presets), len(want), want)
	}
	for name, cfg := range presets {
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
