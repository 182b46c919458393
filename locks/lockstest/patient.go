package lockstest

import (
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/redisconn"
)

// PatientOptions are the strategies' options with every speed bound raised to a size a
// loaded 2-core machine under the race detector still meets, so that a check's outcome
// is the strategy's behaviour, not the scheduler's: one command (2 s by default, and
// rueidis closes a connection whose ping is not answered within it), WAIT (100 ms),
// redsync's per-node bound (TTL x 0.05) and rueidislock's bound on one SET
// (TryNextAfter, 20 ms).
func PatientOptions() locks.Options {
	return locks.Options{
		Options: redisconn.Options{Timeout: 30 * time.Second},
		Wait:    locks.WaitOptions{Timeout: 5 * time.Second},
		Redlock: locks.RedlockOptions{TimeoutFactor: 0.5},
		Rueidis: locks.RueidisOptions{TryNextAfter: time.Second},
	}
}
