package redislock_test

import (
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/backends/redis"
	"github.com/lockbench/lockbench/locks"
)

// Each strategy's place on an axis is the size of the deployment its locker runs on.
func TestScalingStrategiesRunOnTheirSizes(t *testing.T) {
	sizeOf := map[string]func(backend.Spec) int{
		redis.RedlockNodesAxis: func(s backend.Spec) int { return s.Masters },
		redis.WaitReplicasAxis: func(s backend.Spec) int { return s.Replicas },
	}
	for _, ax := range linked.Catalog().ScalingAxes() {
		on := linked.Catalog().OnAxis(ax.Preset)
		if len(on) < 2 {
			t.Errorf("%s: %d strategies, want a size each", ax.Preset, len(on))
		}
		for _, st := range on {
			spec, err := locks.TopologyFor(st.Name)
			if err != nil {
				t.Errorf("%s: %v", st.Name, err)
				continue
			}
			if got := sizeOf[ax.Preset](spec.WithDefaults(linked.Catalog())); got != int(st.Scaling.At) {
				t.Errorf("%s on %s: its deployment has %d, it is placed at %v", st.Name, ax.Preset, got, st.Scaling.At)
			}
		}
	}
}
