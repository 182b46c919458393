package waitobjections

import (
	"time"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
)

func init() { lab.RegisterFamily(registerScenarios) }

// registerScenarios registers the family's scenarios: the names the CLI runs, what each
// starts, its line in the list and its params.
func registerScenarios() {
	lab.Register(waitObjections{}, lab.About{Name: "wait-objections",
		Starts: lab.StartsKinds(topologies.Sentinel, topologies.Replicated),
		Summary: "the objections to WAIT: the lagging replica promoted by replica-priority, the acknowledger dying with " +
			"the master, master and acknowledger restarting empty (loss with WAIT 1 vs WAIT 2); and WAIT's latency against " +
			"replicas waited for and replica lag",
		Params: []lab.Param{
			lab.ChoicesParam("objections", objectionNames(), objectionNames(), "which objections to run"),
			lab.IntsParam("waits", []int{1, 2}, 1, 2,
				"WAIT numreplicas of the objection variants (with WAIT 2 the restart variant keeps the key on the replica left "+
					"standing: its fate is a race of failover against resync)"),
			lab.DurationParam("lag", 300*time.Millisecond, 10*time.Millisecond,
				"CLIENT PAUSE of the lagging replica, started just before the grant; kept under 5 sentinel ping periods so "+
					"that sentinel still finds it fresh enough to promote"),
			lab.DurationParam("wait-timeout", 2*time.Second, time.Millisecond,
				"WAIT's timeout: fewer acks by then refuse the grant (not_granted)"),
			lab.DurationParam("down-after", 400*time.Millisecond, 200*time.Millisecond, "sentinel down-after-milliseconds"),
			lab.DurationParam("failover-timeout", 1500*time.Millisecond, 1100*time.Millisecond, "sentinel failover-timeout"),
			lab.DurationParam("promotion-timeout", 15*time.Second, time.Millisecond,
				"how long to wait for a new master (or a settled one after a restart) before the trial is fault_not_produced"),
			lab.SwitchParam("reuse", true,
				"re-form each sentinel deployment after a trial instead of starting a fresh one per trial"),
			lab.IntParam("deployments", 2, 1, 4, "with reuse: sentinel deployments in rotation"),
			lab.DurationParam("reform-timeout", 15*time.Second, time.Second,
				"with reuse: how long a deployment may take to re-form before a fresh one replaces it"),
			lab.SwitchParam("cost", true, "add the cost variants: SET + WAIT n latency against the lag of one replica"),
			lab.DurationsParam("cost-lags",
				[]time.Duration{0, 5 * time.Millisecond, 20 * time.Millisecond, 50 * time.Millisecond},
				"cost: CLIENT PAUSE of one replica just before each sample (the other replica is not paused)"),
			lab.IntsParam("cost-waits", []int{0, 1, 2}, 0, 2, "cost: WAIT numreplicas (0: SET alone, the baseline)"),
			lab.IntParam("cost-samples", 20, 1, 10000, "cost: timed samples per trial"),
		}})
}
