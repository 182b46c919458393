package redlock

import (
	"testing"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
)

// TestRedlockFence: the per-node max fence holds while every node answers and goes
// backwards after lagged counters or an empty restart; the random token lets A's
// stale write in.
func TestRedlockFence(t *testing.T) {
	t.Parallel()
	labtest.RunScenario(t, "redlock-fence", 1, lab.Params{"ttl": "500ms", "cycles": "2"})
}
