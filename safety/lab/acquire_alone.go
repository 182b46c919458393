package lab

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/lockbench/lockbench/locks"
)

// LateAttempts bounds how often a lone holder asks again after an attempt cut off by a
// deadline.
const LateAttempts = 10

// Grant is a lone holder's acquire: its lease, when the granted attempt began, and how
// many attempts it took.
type Grant struct {
	Lease    locks.Lease
	Started  time.Time
	Attempts int
}

// AcquireAlone is the acquire of a holder no one contends with: an attempt cut off by a
// deadline (a node past its per-node bound, a read timed out) or given back because a
// replica did not acknowledge it within WAIT's timeout is lateness on a busy machine,
// not the lock's answer, so it asks again, as a client would, up to LateAttempts times,
// pause apart. Any other outcome ends it.
func AcquireAlone(ctx context.Context, c *Client, key string, ttl, pause time.Duration) (Grant, error) {
	for n := 1; ; n++ {
		started := time.Now()
		lease, err := c.Acquire(ctx, key, ttl)
		if err == nil || n == LateAttempts || ctx.Err() != nil || !IsLate(err) {
			return Grant{Lease: lease, Started: started, Attempts: n}, err
		}
		if err := Sleep(ctx, pause); err != nil {
			return Grant{Attempts: n}, err
		}
	}
}

// IsLate says whether err is an attempt cut off by a deadline: its context's, a
// socket's read or write, or WAIT's for a replica's acknowledgement.
func IsLate(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) ||
		errors.Is(err, locks.ErrNotReplicated)
}
