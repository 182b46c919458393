package ttl

import (
	"context"
	"errors"
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
	"github.com/lockbench/lockbench/topologies"
)

// TestPausePastTTL runs the scenario on Redis and on etcd: consensus does not stop the
// overlap, the revision fence rejects the stale write, as the INCR fence does on Redis.
// At a 3 s TTL the watchdog extends every second: at 300 ms, a raced process at load 14
// once ran its watchdog a TTL late, and slow work lost its lock to the scheduler.
func TestPausePastTTL(t *testing.T) {
	t.Parallel()
	labtest.RunScenario(t, "pause-past-ttl", 1, lab.Params{"strategies": "single,etcd", "pause-factor": "2", "ttl": "3s"})
}

// TestPausePastTTLTrialsAtOnce runs boundary mode's three trials a side at once on one
// Redis: each trial's clients, key and resource are its own, so the claims hold as one
// at a time (none below the lease's end, every one above), and the trials are
// recorded in order. A 6 s lease, as TestPauseBoundary's: at 3 s, under load, B missed
// the 590 ms between A's lease's end and its write in every above-boundary trial.
func TestPausePastTTLTrialsAtOnce(t *testing.T) {
	t.Parallel()
	rep := labtest.RunScenario(t, "pause-past-ttl", 3, lab.Params{"strategies": "single", "mode": "boundary", "ttl": "6s",
		"pause-at": "1s", "parallel": "3"})
	for _, v := range rep.Variants {
		if len(v.Trials) != 3 {
			t.Errorf("%s: %d trials recorded, want 3", v.Name, len(v.Trials))
		}
		for i, tr := range v.Trials {
			if tr.N != i {
				t.Errorf("%s: trial %d recorded at place %d", v.Name, tr.N, i)
			}
		}
	}
}

// The libraries whose client extends nothing on its own take the same pause: bsm's
// redislock as the house's single does (its fenced variants on the master's counter);
// rueidislock, whose watchdog runs in its library beyond the lab's pause, is refused
// before anything starts. At a 3 s TTL, as TestPausePastTTL: at 300 ms, load 30,
// watchdog-slow-work's watchdog ran late and its "none" claim failed.
func TestPausePastTTLRunsTheLibrariesItCanPause(t *testing.T) {
	t.Parallel()
	labtest.RunScenario(t, "pause-past-ttl", 1, lab.Params{"strategies": "bsm-redislock", "pause-factor": "2", "ttl": "3s"})
	s, err := lab.Lookup("pause-past-ttl")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"rueidislock", "rueidislock-nocache"} {
		env := &lab.Env{Trials: 1, Params: lab.Params{"strategies": name},
			Start: func(context.Context, backend.Spec) (topologies.Topology, error) {
				t.Errorf("%s started a topology", name)
				return nil, errors.New("no servers in this test")
			}}
		var pe *lab.ParamError
		if _, err := lab.Run(context.Background(), s, env); !errors.As(err, &pe) || pe.Name != "strategies" {
			t.Errorf("pause-past-ttl on %s: %v, want a strategies param error", name, err)
		}
	}
}
