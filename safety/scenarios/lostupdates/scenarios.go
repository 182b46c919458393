package lostupdates

import (
	"strings"
	"time"

	"github.com/lockbench/lockbench/safety/lab"
)

func init() { lab.RegisterFamily(registerScenarios) }

// registerScenarios registers the family's scenarios: the names the CLI runs, what each
// starts, its line in the list and its params.
func registerScenarios() {
	lab.Register(lostUpdates{}, lab.About{Name: "lost-updates", Starts: lostUpdatesStarts(),
		Summary: "the lock breaks in the middle of a change to an account row on PostgreSQL: which write guard " +
			"(unfenced, fenced, check-then-write, read-modify-write, +outbox) keeps the data correct, by an audit of the " +
			"rows",
		Params: []lab.Param{
			lab.ChoicesParam("breaks", allBreaks(), allBreaks(), "how the lock breaks, and the lock services each fits: "+
				breaksHelp()+" (the pause break also stops the lock-free writers between read and write; clock-jump moves the "+
				"master's clock with libfaketime); redelivery (lock-free writers only: the same change sent twice)"),
			lab.ChoicesParam("strategies", defaultStrategies(), allStrategies(),
				"the lock services to break (each break runs on those among them that it fits), and the lock-free writers "+
					strings.Join(lockFreeModes, ", ")+" (no lock)"),
			lab.ChoicesParam("guards", AccountModes(), AccountModes(),
				"the write guards of the account row (resources/pgaccount modes)"),
			lab.ChoicesParam("fences", []string{fenceOfLock, fencePGSeq}, []string{fenceOfLock, fencePGSeq},
				"where the token comes from: lock (the lock service's own fence: INCR on the Redis master, etcd's revision, "+
					"pglock's sequence; Redlock has none) or pg-sequence (nextval of a sequence on the account's database, right "+
					"after each grant)"),
			lab.DurationParam("ttl", 500*time.Millisecond, 100*time.Millisecond,
				"the lease of the pause break (etcd grants whole seconds, at least 2 s); clock-jump asks for at least 1 s, "+
					"redlock-restart 2 s and failover 10 s, so that their fault breaks the lock before the lease ends"),
			lab.FloatParam("pause-factor", 2, 1.2, 100, "pause: A stops for this many times the lease the store granted"),
		}})
}
