package hostcrash

import (
	"slices"
	"time"

	"github.com/lockbench/lockbench/safety/lab"
)

func init() { lab.RegisterFamily(registerScenarios) }

// registerScenarios registers the family's scenarios: the names the CLI runs, what each
// starts, its line in the list and its params.
func registerScenarios() {
	lab.Register(hostCrash{}, lab.About{Name: "host-crash", Starts: lab.StartsKinds(),
		Summary: "a one-node store's host loses power right after a grant or a commit and restarts on what was fsynced: " +
			"Redis's appendfsync no loses the lock, always keeps it, everysec is measured; a lone etcd member or ZooKeeper " +
			"server keeps it; PostgreSQL keeps a commit under fsync, loses it without (needs --provider process)",
		Params: []lab.Param{
			orNone(lab.StoresParam("strategies", []string{"single", "waitaof-local", "etcd", "zookeeper"}, onOneNode,
				"the lock strategies to run, each on one node: a Redis master, a lone etcd member (etcd, etcd-unsafe-nofsync) "+
					"or a lone ZooKeeper server (zookeeper); a Redis strategy that names its own policy (waitaof-local: everysec) "+
					"runs under that one only; none runs none")),
			lab.ChoicesParam("fsync", policies, policies,
				"the Redis master's appendfsync policies (etcd and ZooKeeper keep their own)"),
			lab.ChoicesParam("postgres", pgSettings, append(slices.Clone(pgSettings), none),
				"PostgreSQL's settings, each a server whose committed change the crash follows: "+pgFsyncOn+", "+
					pgAsyncCommit+", "+pgFsyncOff+"; "+none+" runs none"),
			lab.DurationParam("ttl", 10*time.Second, time.Second,
				"the lock's TTL: A's lease must outlast the crash, the restart and B's try"),
		}})
	lab.Register(hostCrashFailover{}, lab.About{Name: "host-crash-failover", Starts: lab.StartsKinds(),
		Summary: "a master and the replica that acknowledged A's grant lose power together; the replica restarts on what " +
			"it fsynced and is promoted: WAIT 1 keeps the lock only where the replica fsyncs every write, WAITAOF 0 1 " +
			"always (needs --provider process)",
		Params: []lab.Param{
			lab.StoresParam("strategies", []string{"wait", "waitaof-replica"}, replicated,
				"the lock strategies to run, each on a master and one replica: wait (SET NX PX, then WAIT 1) runs under each "+
					"fsync policy, a WAITAOF strategy under its own (waitaof-replica: always, on Valkey)"),
			lab.ChoicesParam("fsync", failoverPolicies, policies,
				"the appendfsync policies of master and replica for a strategy that names none"),
			lab.DurationParam("ttl", 15*time.Second, time.Second,
				"the lock's TTL: A's lease must outlast the crash, the replica's restart, its promotion and B's try"),
		}})
}
