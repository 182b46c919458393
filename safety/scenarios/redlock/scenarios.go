package redlock

import (
	"time"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
)

func init() { lab.RegisterFamily(registerScenarios) }

// registerScenarios registers the family's scenarios: the names the CLI runs, what each
// starts, its line in the list and its params.
func registerScenarios() {
	lab.Register(redlockFence{}, lab.About{Name: "redlock-fence", Starts: lab.StartsKinds(topologies.Redlock),
		Summary: "Redlock's per-node INCR fence (max over the granting majority) goes backwards after lagged counters or " +
			"an empty restart; its random token lets a stale write in",
		Params: []lab.Param{
			lab.DurationParam("ttl", time.Second, 200*time.Millisecond,
				"the lock's TTL (redsync gives each node TTL x 0.05 to answer; a stopped node costs that per command)"),
			lab.IntParam("cycles", 3, 2, 50, "lock cycles in each phase of the lagged and restart variants"),
		}})
	lab.Register(redlockQuorum{}, lab.About{Name: "redlock-quorum", Starts: lab.StartsKinds(),
		Summary: "redsync #186: how often redlock and redlock-failfast grants sit on exactly a quorum, the break rate " +
			"when one of its nodes restarts empty, and partial locks left under contention",
		Params: []lab.Param{
			lab.StoresParam("strategies", []string{"redlock", "redlock-failfast"}, isRedlock,
				"the Redlock strategies to compare"),
			lab.DurationParam("ttl", time.Second, 500*time.Millisecond,
				"the lock's TTL (the restart and B's tries must fit inside it)"),
			lab.IntParam("clients", 4, 2, 16, "clients racing for each grant in the contended variants"),
			lab.DurationParam("settle", 50*time.Millisecond, 0,
				"how long after every client is done the nodes are read for partial locks"),
		}})
	lab.Register(redlockRestart{}, lab.About{Name: "redlock-restart", Starts: lab.StartsKinds(),
		Summary: "a Redlock node restarts empty right after a grant: a second client wins a majority; delayed restart, " +
			"appendfsync always through a host crash or WithSetNXOnExtend change it (the host crashes need --provider " +
			"process)",
		Params: []lab.Param{
			lab.StoresParam("strategies", []string{"redlock"}, isRedlock, "the Redlock strategies to run"),
			lab.DurationParam("ttl", 2*time.Second, 500*time.Millisecond,
				"the lock's TTL (the delayed restart waits this long; node restarts take tens of ms each)"),
			lab.ChoicesParam("fsync", hostCrashPolicies, hostCrashPolicies,
				"the appendfsync policies of the host-crash variants (always is the Redlock author's first remedy)"),
		}})
}
