package redlock

import (
	"testing"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
)

// TestRedlockFence: the per-node max fence holds while every node answers and goes
// backwards after lagged counters or an empty restart; the random token lets A's
// stale write in. At a 6 s TTL redsync gives each node 300 ms (TTL / 20) and the fence
// 1.2 s (TTL / 5): at 3 s, a node of a restarted majority missed its 100 ms count under
// load, and at 500 ms (25 ms) one missed a steady grant's count.
func TestRedlockFence(t *testing.T) {
	t.Parallel()
	labtest.RunScenario(t, "redlock-fence", 1, lab.Params{"ttl": "6s", "cycles": "2"})
}
