package redlock

import (
	"testing"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
)

// TestRedlockFence: the per-node max fence holds while every node answers and goes
// backwards after lagged counters or an empty restart; the random token lets A's
// stale write in. At a 20 s TTL redsync gives each node 1 s (TTL / 20) and the fence
// 4 s (TTL / 5): at 6 s, load 45, a node missed a steady grant's 300 ms count (the
// counters read [5 5 4 4 5]); at 3 s, a node of a restarted majority missed its 100 ms.
func TestRedlockFence(t *testing.T) {
	t.Parallel()
	labtest.RunScenario(t, "redlock-fence", 1, lab.Params{"ttl": "20s", "cycles": "2"})
}
