package locks

import (
	"context"
	"time"
)

// Waiter is a Locker that also waits for a held key the way its library or store does:
// polling, backoff, a notification, a queue, or blocking in the server. Acquire stays
// one attempt, so the cost of an attempt and the time a team waits are measured apart.
type Waiter interface {
	Locker
	// AcquireWaiting returns once the key is granted, ctx ends, or the library gives
	// up (ErrNotAcquired, wrapped with how long it tried). Like Acquire, a wait cut off
	// by ctx gives back whatever it may have taken.
	AcquireWaiting(ctx context.Context, key string, ttl time.Duration) (Lease, error)
	// Waiting says how it waits, in a few words for reports ("redsync: 32 tries, 50-250 ms apart").
	Waiting() string
}
