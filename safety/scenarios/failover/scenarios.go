package failover

import (
	"time"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
)

func init() { lab.RegisterFamily(registerScenarios) }

// registerScenarios registers the family's scenarios: the names the CLI runs, what each
// starts, its line in the list and its params.
func registerScenarios() {
	lab.Register(failoverLoss{}, lab.About{Name: "failover-loss", Starts: lab.StartsKinds(topologies.Sentinel),
		Summary: "sentinel master dies delay after a grant: the promoted replica may lack the lock (loss probability vs " +
			"delay and lag; WAIT 1, WAIT 2, min-replicas-to-write; zombie master)",
		Params: []lab.Param{
			lab.StoresParam("strategies", []string{"sentinel"}, fitsFailoverLoss,
				"the lock services to run on: sentinel (every mode), or a store whose primary is the key's master, such as "+
					"cluster (modes none and wait1, cut pause, a fresh deployment per trial, down-after as its node timeout)"),
			lab.ChoicesParam("modes", defaultModes, guardModes(),
				"what guards the grant: none (sentinel SET NX), wait1, wait2 (SET then WAIT n), min-replicas "+
					"(min-replicas-to-write 1, max-lag 10 s, above every lag run: the crash case it cannot see), "+
					"min-replicas-stalled (every replica stopped past stalled-max-lag before the grant: where it refuses), zombie "+
					"(stop the master, resume it after the failover), planned (no guard; SENTINEL FAILOVER instead of the kill, as "+
					"host patching does: the old master lives on and is demoted); named only: waitaof-replica, waitaof-both (SET "+
					"then WAITAOF 0 1 or 1 1, on Valkey deployments of their own with appendfsync always)"),
			lab.DurationsParam("delays",
				[]time.Duration{0, 10 * time.Millisecond, 25 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond},
				"time from grant to SIGKILL of the master (planned: to SENTINEL FAILOVER)"),
			lab.DurationParam("lag-max", 50*time.Millisecond, 0,
				"each replica stops applying the stream (CLIENT PAUSE) for a whole number of ms drawn uniformly in [0, "+
					"lag-max] just before the grant; 0 means natural lag only"),
			lab.ChoiceParam("cut", "pause", []string{"pause", "link-kill"},
				"how the replicas miss the grant: pause (CLIENT PAUSE each for its drawn lag) or link-kill (SIGSTOP the "+
					"replicas and CLIENT KILL TYPE replica on the master before the grant, SIGCONT after the kill: every "+
					"grant is missed)"),
			lab.DurationParam("stalled-max-lag", time.Second, time.Second,
				"min-replicas-stalled: min-replicas-max-lag, whole seconds (Redis counts a replica's lag in seconds since its "+
					"last once-a-second ack)"),
			lab.DurationParam("wait-timeout", 200*time.Millisecond, time.Millisecond,
				"WAIT's timeout in the wait modes: fewer acks by then refuse the grant"),
			lab.DurationParam("down-after", 400*time.Millisecond, 200*time.Millisecond,
				"sentinel down-after-milliseconds (sentinels then ping and reconnect every half of it, at most 1 s)"),
			lab.DurationParam("failover-timeout", 1500*time.Millisecond, 1100*time.Millisecond,
				"sentinel failover-timeout: a promotion must be seen within it, and sentinel sees one only at its next "+
					"once-a-second INFO of the replica"),
			lab.DurationParam("promotion-timeout", 15*time.Second, time.Millisecond,
				"how long to wait for a new master before the trial is fault_not_produced"),
			lab.DurationParam("zombie-watch", 20*time.Second, 100*time.Millisecond,
				"zombie and planned modes: how long to keep probing the old master for writes (after its resume, after "+
					"SENTINEL FAILOVER); a window cut here is a lower bound"),
			lab.SwitchParam("reuse", true,
				"re-form each sentinel deployment after a trial instead of starting a fresh one per trial"),
			lab.IntParam("parallel", defaultParallel, 1, 8,
				"trials run at once, each on a deployment of its own under a key of its own (the servers wait on sentinel most "+
					"of a trial): trial n keeps its seed and draws whatever this is, and outcomes are recorded in trial order; 1 "+
					"runs them one after another"),
			lab.IntParam("deployments", 2, 1, 4, "with reuse: sentinel deployments in rotation per trial running at once, "+
				"so that one re-forms while a trial runs on another"),
			lab.DurationParam("reform-timeout", 15*time.Second, time.Second,
				"with reuse: how long a deployment may take to re-form before a fresh one replaces it"),
		}})
	lab.Register(rueidisClusterSpread{}, lab.About{Name: "rueidislock-cluster-spread", Starts: lab.StartsKinds(),
		Summary: "rueidislock on a Redis Cluster: a name whose majority of keys shares one master loses the lock when " +
			"that master fails over without them; a name spread over three masters keeps it",
		Params: []lab.Param{
			lab.OneStoreParam("strategy", "rueidislock-cluster", fitsRueidisCluster, "rueidislock on a cluster"),
			lab.DurationParam("node-timeout", 5*time.Second, time.Second,
				"cluster-node-timeout: how long the masters wait before they fail the dead one"),
			lab.DurationParam("promotion-timeout", time.Minute, time.Second, "how long a replica has to be promoted"),
		}})
}
