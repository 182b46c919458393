package ttl

import (
	"testing"

	_ "github.com/lockbench/lockbench/backends/etcd/etcdlock" // registers the etcd strategies and provider
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
)

// TestPausePastTTL runs the scenario on Redis and on etcd: consensus does not stop the
// overlap, the revision fence rejects the stale write, as the INCR fence does on Redis.
func TestPausePastTTL(t *testing.T) {
	labtest.RunScenario(t, "pause-past-ttl", 1, lab.Params{"strategies": "single,etcd", "pause-factor": "2"})
}
