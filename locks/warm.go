package locks

import (
	"context"
	"fmt"
	"time"
)

// WarmUp says what a measurement is about to ask of a locker.
type WarmUp struct {
	// Clients is how many clients will call the locker at once: each needs a
	// connection (or session) of its own to every node.
	Clients int
	// TTL is the ttl the clients will ask for (ZooKeeper sessions are made per ttl).
	TTL time.Duration
}

// Warmer is a locker that can open, before a measurement, every connection its clients
// will use, so that no attempt inside the measurement pays for a dial.
type Warmer interface {
	// Warm opens up to w.Clients connections to every node, proves each with a round
	// trip, and leaves them idle in the locker's pools.
	Warm(ctx context.Context, w WarmUp) error
}

// Warm warms l if it is a Warmer; any other locker is left as it is.
func Warm(ctx context.Context, l Locker, w WarmUp) error {
	warmer, ok := l.(Warmer)
	if !ok || w.Clients < 1 {
		return nil
	}
	if err := warmer.Warm(ctx, w); err != nil {
		return fmt.Errorf("%s: warm up %d connections: %w", l.Strategy(), w.Clients, err)
	}
	return nil
}
