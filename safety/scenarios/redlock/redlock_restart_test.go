package redlock

import (
	"testing"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
)

// An 8 s TTL: the host-crash variants restart three nodes on rebuilt disks, which a
// loaded machine can stretch past the default 2 s while A still holds.
func TestRedlockRestart(t *testing.T) {
	t.Parallel()
	labtest.RunScenario(t, "redlock-restart", 1, lab.Params{"ttl": "8s"})
}
