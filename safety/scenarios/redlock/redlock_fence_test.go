package redlock

import (
	"testing"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
)

// TestRedlockFence: the per-node max fence holds while every node answers and goes
// backwards after lagged counters or an empty restart; the random token lets A's
// stale write in. At a 3 s TTL each node's INCR has 150 ms (TTL / 20): at 500 ms
// (25 ms) a loaded machine let one node miss a steady grant's count.
func TestRedlockFence(t *testing.T) {
	t.Parallel()
	labtest.RunScenario(t, "redlock-fence", 1, lab.Params{"ttl": "3s", "cycles": "2"})
}
