package safety

import "testing"

// TestRedlockFence: the per-node max fence holds while every node answers and goes
// backwards after lagged counters or an empty restart; the random token lets A's
// stale write in.
func TestRedlockFence(t *testing.T) {
	runScenario(t, "redlock-fence", 1, Params{"ttl": "500ms", "cycles": "2"})
}
