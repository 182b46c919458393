package lag

import (
	"time"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
)

func init() { lab.RegisterFamily(registerScenarios) }

// registerScenarios registers the family's scenarios: the names the CLI runs, what each
// starts, its line in the list and its params.
func registerScenarios() {
	lab.Register(replicationLag{}, lab.About{Name: "replication-lag", Starts: lab.StartsKinds(topologies.Replicated),
		Summary: "replication lag (SET acknowledged on the master to visible on each replica, polled) against the " +
			"background write rate, idle to saturation: p50/p99/p99.9/max, and P(lag > x) beside failover-loss's P(lost) " +
			"against delay-to-kill",
		Params: []lab.Param{
			lab.IntsParam("rates", []int{0, 1000, 10000}, 0, 1000000,
				"background write rates (writes/s) to the master, 0 for idle"),
			lab.SwitchParam("saturate", true, "add a variant whose background writers write as fast as they can"),
			lab.IntParam("probes", 50, 1, 10000, "probes per trial"),
			lab.DurationParam("probe-interval", 5*time.Millisecond, 0, "pause between one probe seen everywhere and the next"),
			lab.DurationParam("poll-timeout", 2*time.Second, time.Millisecond,
				"a probe not visible on a replica by then is counted as unseen"),
			lab.DurationParam("warmup", 200*time.Millisecond, 0, "background load runs this long before the first probe"),
			pathParam("failover-results", "",
				"a failover-loss run's output folder (or its results.json): its loss-vs-delay series are laid over P(lag > x)"),
		}})
}
