package clock

import (
	"time"

	"github.com/lockbench/lockbench/locks/rueidislayout"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
)

func init() { lab.RegisterFamily(registerScenarios) }

// registerScenarios registers the family's scenarios: the names the CLI runs, what each
// starts, its line in the list and its params.
func registerScenarios() {
	lab.Register(redlockClockJump{}, lab.About{Name: "redlock-clock-jump", Starts: lab.StartsFaked(),
		Summary: "k of 5 Redlock nodes jump forward J right after A's grant; B tries: breaks for k >= 3 once J > drift x TTL",
		Params: []lab.Param{
			lab.DurationParam("ttl", time.Second, 200*time.Millisecond, "the lock's TTL (each trial lasts about this long)"),
			lab.IntsParam("k", []int{1, 2, 3}, 0, 5, "how many nodes jump"),
			lab.DurationsParam("jumps", []time.Duration{2 * time.Millisecond, 30 * time.Millisecond, 300 * time.Millisecond},
				"the jumps J to run"),
			lab.SwitchParam("search", false, "on: also bisect the smallest breaking J for each k, to 1 ms"),
			redlockClientsParam(),
		}})
	lab.Register(redlockClockRate{}, lab.About{Name: "redlock-clock-rate", Starts: lab.StartsFaked(),
		Summary: "k of 5 Redlock nodes run fast by rate r; B tries: breaks for k >= 3 once r > 1/(1-drift); a larger " +
			"drift factor moves it",
		Params: []lab.Param{
			lab.DurationParam("ttl", time.Second, 200*time.Millisecond, "the lock's TTL (each trial lasts about this long)"),
			lab.IntsParam("k", []int{3}, 0, 5, "how many nodes run fast"),
			lab.FloatsParam("rates", []float64{1.005, 1.02, 1.1}, 0.01, 100, "the rates r to run"),
			lab.FloatsParam("drifts", []float64{0.01, 0.05}, 1e-9, 0.5, "redsync drift factors to run (0.01 is its default)"),
			lab.SwitchParam("search", false, "on: also bisect the smallest breaking r for each k and drift, to 0.001"),
			redlockClientsParam(),
		}})
	lab.Register(kleppmannClock{}, lab.About{Name: "redlock-kleppmann", Starts: lab.StartsFaked(),
		Summary: "Kleppmann 2016: A locks nodes 1-3 (4, 5 unreachable), node 3's clock jumps, B locks 3-5 while A still " +
			"holds",
		Params: []lab.Param{
			lab.DurationParam("ttl", time.Second, 200*time.Millisecond, "the lock's TTL"),
			lab.DurationParam("jump", 500*time.Millisecond, time.Millisecond,
				"how far node 3's clock jumps forward right after A's grant"),
			redlockClientsParam(),
		}})
	lab.Register(rueidisClockBehind{}, lab.About{Name: "rueidislock-clock-behind",
		Starts: lab.StartsFaked(topologies.Single),
		Summary: "rueidislock sets its key's end from the client's clock (PXAT): a server clock ahead by more than the " +
			"key's validity grants B beside A at once; FallbackSETPX's first push deletes the key instead",
		Params: []lab.Param{
			lab.ChoicesParam("strategies", []string{rueidisCached, rueidisUncached}, []string{rueidisCached, rueidisUncached},
				"rueidislock with client-side caching (told of a lost key by its invalidation) or without (told at the "+
					"watchdog's next push)"),
			lab.DurationParam("ahead", 6*time.Second, time.Millisecond,
				"how far the server's clock runs ahead of the client's (more than the library's key validity, "+
					rueidislayout.KeyValidity.String()+")"),
		}})
	lab.Register(sentinelClockSkew{}, lab.About{Name: "sentinel-clock-skew", Starts: lab.StartsFaked(),
		Summary: "the replicas' clocks differ from the master's; the master dies after a replicated grant: a replica " +
			"ahead expires the key at promotion, B locks",
		Params: []lab.Param{
			lab.OneStoreParam("strategies", "sentinel", fitsSentinelClockSkew,
				"the lock service: a Redis master whose sentinels promote one of its replicas"),
			lab.DurationParam("ttl", 20*time.Second, 5*time.Second,
				"the lock's TTL (must outlast the failover, about 2 s here)"),
			lab.DurationParam("offset", 30*time.Second, time.Second,
				"how far the replicas' clocks are ahead (and, in replica-behind, behind)"),
			lab.DurationParam("promotion-timeout", 20*time.Second, time.Second,
				"how long to wait for sentinels to promote a replica"),
		}})
	lab.Register(singleClockSkew{}, lab.About{Name: "single-clock-skew", Starts: lab.StartsFaked(topologies.Single),
		Summary: "a single master's clock jumps forward, back, or runs fast/slow while A holds: forward or fast hands B " +
			"the lock early; mode=boundary jumps just below and just above TTL - hold",
		Params: []lab.Param{
			lab.DurationParam("ttl", time.Second, 200*time.Millisecond, "the lock's TTL"),
			lab.DurationParam("jump", 300*time.Millisecond, time.Millisecond, "the size of the forward and backward jumps"),
			lab.ChoiceParam("mode", mechanismMode, []string{mechanismMode, boundaryMode},
				"mechanism: the five clocks above, A holding its whole lease; boundary: only forward jumps of each "+
					"boundary-factor x (TTL - hold), A leaving after hold"),
			lab.DurationParam("hold", 500*time.Millisecond, time.Millisecond,
				"boundary mode: how long A works before it leaves (below ttl)"),
			lab.BoundaryFactorsParam("boundary mode: the master's clock jumps each of these times TTL - hold right after " +
				"A's grant (below 1: no break expected; above 1: a break)"),
		}})
}
