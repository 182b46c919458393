package consensus

import (
	"time"

	"github.com/lockbench/lockbench/safety/lab"
)

func init() { lab.RegisterFamily(registerScenarios) }

// registerScenarios registers the family's scenarios: the names the CLI runs, what each
// starts, its line in the list and its params.
func registerScenarios() {
	lab.Register(etcdLeaderKill{}, lab.About{Name: "etcd-leader-kill", Starts: lab.StartsKinds(),
		Summary: "kill a consensus leader (etcd's, ZooKeeper's) right after a grant: no second holder, fences keep " +
			"growing; a lone member's lost disk breaks both",
		Params: []lab.Param{
			lab.StoresParam("strategies", lab.RegisteredOf(defaultConsensus), lab.IsConsensusFailover,
				"the consensus services: a group of three has its leader killed, a lone member loses its disk"),
			lab.DurationParam("ttl", 10*time.Second, 5*time.Second,
				"the lock's TTL: long enough that only a lost lock, never expiry, lets B in (a leader election must fit well "+
					"inside it)"),
			lab.DurationParam("probe", time.Second, time.Millisecond,
				"how long B keeps trying while A holds the lock after the fault"),
			lab.DurationParam("election-timeout", 20*time.Second, time.Millisecond,
				"how long to wait for a new leader before the trial is fault_not_produced"),
		}})
	lab.Register(fenceRegression{}, lab.About{Name: "fence-regression", Starts: lab.StartsKinds(),
		Summary: "the primary dies after its followers lagged: an INCR fence on Redis goes backwards (tokens reissued, " +
			"the honest holder refused, fenced stores diverge); etcd's revision does not",
		Params: []lab.Param{
			lab.StoresParam("strategies", []string{"sentinel", "etcd-3"}, fitsFenceRegression,
				"the lock services to run on (a primary that fails over, followers that can lag)"),
			lab.IntParam("cycles", 3, 1, 1000, "lock cycles in each phase (before the lag, during it, after the promotion)"),
			lab.DurationParam("promotion-timeout", 20*time.Second, time.Millisecond,
				"how long to wait for a new primary before the trial is fault_not_produced"),
		}})
}
