package ttl

import (
	"time"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
)

func init() { lab.RegisterFamily(registerScenarios) }

// registerScenarios registers the family's scenarios: the names the CLI runs, what each
// starts, its line in the list and its params.
func registerScenarios() {
	lab.Register(pausePastTTL{}, lab.About{Name: "pause-past-ttl", Starts: lab.StartsKinds(),
		Summary: "the holder pauses longer than its lease: two holders with or without a watchdog, on Redis and on etcd; " +
			"a fenced resource rejects every stale write; mode=boundary stops just below and just above the lease left",
		Params: []lab.Param{
			lab.StoresParam("strategies", []string{"single", "etcd"}, pausable,
				"the lock services to run on; not rueidislock, whose library extends its key from goroutines the lab's pause "+
					"of A does not stop"),
			lab.DurationParam("ttl", 300*time.Millisecond, 30*time.Millisecond,
				"the TTL asked for (etcd grants whole seconds, at least 2 s)"),
			lab.FloatParam("pause-factor", 3, 1.5, 100, "the holder stops for this many times the TTL the store granted"),
			lab.ChoiceParam("mode", mechanismMode, []string{mechanismMode, boundaryMode},
				"mechanism: the five variants at pause-factor; boundary: only an unfenced holder paused each boundary-factor x "+
					"the lease it has left (the pause model's boundary)"),
			lab.BoundaryFactorsParam("boundary mode: A stops for each of these times the lease it has left (below 1: no " +
				"break expected; above 1: a break)"),
			lab.DurationParam("pause-at", 0, 0,
				"boundary mode: A works this long inside its lease before it stops (the model's time held; below ttl)"),
			lab.IntParam("parallel", 1, 1, 8, "trials of a variant run at once on the store's one deployment, each with its "+
				"own clients, key and resource (a trial mostly waits out its pause): trial n keeps its seed and key whatever "+
				"this is, outcomes are recorded in trial order; 1 runs them one after another"),
		}})
	lab.Register(ttlTradeoff{}, lab.About{Name: "ttl-tradeoff", Starts: lab.StartsKinds(topologies.Single),
		Summary: "TTL trade-off: P(TTL expires mid-work) per hold-time distribution against the time a crashed holder's " +
			"lock stays blocked, with and without a watchdog (single Redis)",
		Params: []lab.Param{
			lab.ChoicesParam("distributions", holdDistributionNames, holdDistributionNames,
				"hold-time distributions, all of mean hold: constant, exponential, lognormal, pareto"),
			lab.DurationParam("hold", 100*time.Millisecond, time.Millisecond, "the mean hold time of every distribution"),
			lab.FloatParam("lognormal-sigma", 1, 0.1, 4, "the lognormal's sigma (of the log of the hold)"),
			lab.FloatParam("pareto-alpha", 1.5, 1.05, 10,
				"the Pareto's tail index: smaller is a longer tail (the mean exists above 1)"),
			lab.DurationParam("hold-max", 2*time.Second, time.Millisecond,
				"no drawn hold is longer: a long tail must not stall a run"),
			lab.DurationsParam("ttls",
				[]time.Duration{25 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond,
					400 * time.Millisecond},
				"the TTLs swept (each at least 3 ms: the watchdog extends every TTL/3)"),
			lab.DurationParam("poll", time.Millisecond, 100*time.Microsecond,
				"after a crash, the second client retries its acquire this often"),
			lab.IntParam("crash-after-extends", 2, 1, 100,
				"with a watchdog, the holder crashes right after this many extensions succeeded"),
		}})
}
