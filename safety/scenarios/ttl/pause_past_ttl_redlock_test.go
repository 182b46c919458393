package ttl

import (
	"testing"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
)

// TestPausePastTTLRedlock: pause-past-ttl on five Redlock nodes, waiting for all of
// them and fail-fast: the paused holder's stale write lands beside B's as on one node,
// watchdog or not, and the fenced resource (INCR on master 0) refuses it. A 2 s TTL
// gives each node 100 ms (TTL x 0.05): at 300 ms, 15 ms, a loaded machine missed it.
// A pause of 3 leases leaves B 4 s past A's lease: with 1 s (1.5 leases), at load 20,
// B's attempts on redlock-failfast were refused to the end of A's pause.
func TestPausePastTTLRedlock(t *testing.T) {
	t.Parallel()
	labtest.RunScenario(t, "pause-past-ttl", 1,
		lab.Params{"strategies": "redlock,redlock-failfast", "ttl": "2s", "pause-factor": "3"})
}
