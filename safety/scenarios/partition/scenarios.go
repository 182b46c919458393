package partition

import (
	"time"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
)

func init() { lab.RegisterFamily(registerScenarios) }

// registerScenarios registers the family's scenarios: the names the CLI runs, what each
// starts, its line in the list and its params.
func registerScenarios() {
	lab.Register(clusterSplitBrain{}, lab.About{Name: "cluster-split-brain", Starts: lab.StartsKinds(),
		Summary: "partition: a Redis Cluster's key master and client A cut from the other nodes; the master takes writes " +
			"until cluster-node-timeout, the majority promotes its replica and B locks there (needs --provider container)",
		Params: []lab.Param{
			lab.StoresParam("strategies", []string{"cluster"}, fitsClusterSplit,
				"the lock services A and B use: a Redis Cluster's strategy whose own grant does not wait for replicas "+
					"(cluster, cluster-fenced)"),
			lab.ChoicesParam("modes", clusterSplitModes, clusterSplitModes,
				"what guards A's and B's grants: none (the strategy's own) or wait1 (SET NX PX, then WAIT 1 on the key's master)"),
			lab.DurationParam("wait-timeout", 200*time.Millisecond, time.Millisecond,
				"WAIT's timeout in mode wait1: fewer acknowledgements by then refuse the grant"),
			lab.DurationsParam("node-timeouts", []time.Duration{time.Second, 3 * time.Second},
				"cluster-node-timeout of every node: after it a cut master stops taking writes and the others mark it failed"),
			lab.DurationParam("ttl", 15*time.Second, time.Second,
				"A's and B's lock TTL: A's must outlast the promotion (about the node timeout plus the replica's election)"),
			lab.DurationParam("cut-hold", 5*time.Second, time.Second,
				"once the promotion is seen, how long the cut lasts while B is refused (cluster-wait's promoted master has no "+
					"replica until the old master rejoins it after the heal)"),
			lab.DurationParam("promotion-timeout", 30*time.Second, time.Millisecond,
				"how long after the cut to wait for the proofs and the promotion before the trial is fault_not_produced"),
		}})
	lab.Register(consensusPartition{}, lab.About{Name: "consensus-partition", Starts: lab.StartsKinds(),
		Summary: "partition: a consensus leader (etcd-3, zookeeper-3) cut off from its two followers, a client still " +
			"reaching it: it grants nothing, B locks on the majority only after A's lease ran out (needs --provider " +
			"container)",
		Params: []lab.Param{
			lab.StoresParam("strategies", lab.RegisteredOf([]string{"etcd-3"}), isConsensusGroup,
				"the three-member consensus groups whose leader is isolated"),
			lab.DurationParam("ttl", 5*time.Second, 2*time.Second, "A's lease: B must wait it out on the majority"),
			lab.DurationParam("election-timeout", 20*time.Second, time.Millisecond,
				"how long to wait for a leader among the majority before the trial is fault_not_produced"),
		}})
	lab.Register(redlockPartition{}, lab.About{Name: "redlock-partition", Starts: lab.StartsKinds(topologies.Redlock),
		Summary: "partition: a Redlock client cut from 2 of 5 nodes still locks with 3; two clients reaching different " +
			"majorities, a shared node restarting empty: two holders unless the restart is delayed (needs --provider " +
			"container)",
		Params: []lab.Param{
			lab.DurationParam("ttl", 8*time.Second, time.Second,
				"the lock's TTL; redsync gives each node TTL x 0.05 to answer, so a cut node costs that much validity; a "+
					"container restart takes seconds under load, and A must still be valid after it"),
		}})
	lab.Register(sentinelSplitBrain{}, lab.About{Name: "sentinel-split-brain", Starts: lab.StartsKinds(),
		Summary: "partition: the master and client A cut off from replicas and sentinels; a replica is promoted, B locks " +
			"there: two masters grant the lock until min-replicas-max-lag stops the old one or the heal demotes it (needs " +
			"--provider container)",
		Params: []lab.Param{
			lab.OneStoreParam("strategies", "sentinel", fitsSentinelSplitBrain,
				"the lock service: a Redis master whose sentinels promote one of its replicas"),
			lab.IntsParam("min-replicas", []int{0, 1}, 0, 2,
				"min-replicas-to-write on every data node: 0 (off) or the number of replicas a master needs to accept writes"),
			lab.DurationsParam("max-lags", []time.Duration{time.Second, 5 * time.Second, 10 * time.Second},
				"min-replicas-max-lag (whole seconds, at least 1 s) for min-replicas > 0"),
			lab.DurationParam("ttl", 5*time.Second, time.Second, "A's and B's lock TTL: A's must outlast the promotion"),
			lab.DurationParam("cut-hold", 12*time.Second, 3*time.Second,
				"the longest the partition lasts while the old master still grants; then it heals and the old master is "+
					"watched until it is demoted"),
			lab.DurationParam("down-after", 400*time.Millisecond, 200*time.Millisecond,
				"sentinel down-after-milliseconds (pings every half of it)"),
			lab.DurationParam("promotion-timeout", 15*time.Second, time.Millisecond,
				"how long to wait for a new master before the trial is fault_not_produced"),
			lab.DurationParam("demotion-watch", 30*time.Second, time.Second,
				"after the heal, how long to keep probing the old master for its demotion; a window still open then is a "+
					"lower bound"),
		}})
}
