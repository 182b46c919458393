package release

import (
	"time"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
)

func init() { lab.RegisterFamily(registerScenarios) }

// registerScenarios registers the family's scenarios: the names the CLI runs, what each
// starts, its line in the list and its params.
func registerScenarios() {
	lab.Register(checkThenDelete{}, lab.About{Name: "check-then-delete", Starts: lab.StartsKinds(topologies.Single),
		Summary: "a release by GET, compare, then DEL deletes the next holder's lock when the TTL runs out between them " +
			"(paused, and naturally under load); the Lua release never does",
		Params: []lab.Param{
			lab.DurationParam("ttl", 100*time.Millisecond, 10*time.Millisecond,
				"pause variants: A's TTL; A stops for twice this between its GET and its DEL"),
			lab.DurationParam("load-ttl", 20*time.Millisecond, 2*time.Millisecond, "load variants: every client's TTL"),
			lab.DurationParam("load-window", time.Millisecond, 0,
				"load variants: each hold ends a uniform random time in [0, window] before the TTL"),
			lab.IntParam("clients", 16, 2, 256,
				"load variants: clients contending for the key, each retrying at once when refused"),
			lab.DurationParam("load", time.Second, 100*time.Millisecond, "load variants: how long each trial's load runs"),
		}})
	lab.Register(checkThenWriteLock{}, lab.About{Name: "check-then-write-lock", Starts: lab.StartsKinds(),
		Summary: "a holder that wakes from a pause, checks its lock (GET or PTTL), sees it valid and writes: the lock " +
			"expired between the answer and the write; the fenced write is refused",
		Params: []lab.Param{
			lab.OneStoreParam("strategies", "single", fitsCheckThenWrite,
				"the lock service: one Redis master that A asks about its key (GET, PTTL) and that numbers the fenced grants"),
			lab.DurationParam("ttl", 100*time.Millisecond, 20*time.Millisecond,
				"A's TTL; A's pause ends in the last land of it"),
			lab.DurationParam("land", 10*time.Millisecond, time.Millisecond,
				"A's check lands at a uniform random instant in the last land of its lease (write=after-expiry: land before "+
					"its end)"),
			lab.DurationParam("gap", 5*time.Millisecond, 0,
				"the time between the check's answer and A's write (its own work, a context switch)"),
			lab.ChoiceParam("write", writeAfterGap, []string{writeAfterGap, writeAfterExpiry},
				"when A writes: after the gap (a rate: how often a valid answer was already wrong), or once B wrote (a pause "+
					"forced between the answer and the write: a demonstration, whatever the machine's load)"),
		}})
	lab.Register(setnxExpire{}, lab.About{Name: "setnx-expire", Starts: lab.StartsKinds(topologies.Single),
		Summary: "the holder dies between SETNX and EXPIRE: the lock is orphaned; SET NX PX is one command and expires",
		Params: []lab.Param{lab.DurationParam("ttl", 200*time.Millisecond, time.Millisecond,
			"the lock's TTL; the second client tries after twice this")}})
	lab.Register(unsafeRelease{}, lab.About{Name: "unsafe-release", Starts: lab.StartsKinds(topologies.Single),
		Summary: "a release by plain DEL after the TTL ran out frees the next holder's lock: two holders; the Lua " +
			"release fixes it",
		Params: []lab.Param{lab.DurationParam("ttl", 300*time.Millisecond, 10*time.Millisecond,
			"A's TTL; A stalls for twice this between its work and its release")}})
}
