package locks

import (
	"fmt"
	"time"

	"github.com/lockbench/lockbench/redisconn"
)

// The option types are plain settings that flags and configs fill; the lockers that
// read them live with their store (backends/<store>/...).

// WaitOptions configure the wait strategy.
type WaitOptions struct {
	redisconn.Options
	// Replicas is how many replicas must acknowledge the SET (default 1).
	Replicas int
	// Timeout is WAIT's own timeout (default 100 ms). Zero would block forever.
	Timeout time.Duration
}

// Acknowledged is nil when WAIT's count of replicas reaches o's, ErrNotReplicated
// otherwise.
func (o WaitOptions) Acknowledged(acked int64) error {
	if acked < int64(o.Replicas) {
		return fmt.Errorf("%w: %d of %d replicas within %v", ErrNotReplicated, acked, o.Replicas, o.Timeout)
	}
	return nil
}

// WithDefaults fills what o leaves zero: one replica, 100 ms.
func (o WaitOptions) WithDefaults() WaitOptions {
	if o.Replicas <= 0 {
		o.Replicas = 1
	}
	if o.Timeout <= 0 {
		o.Timeout = 100 * time.Millisecond
	}
	return o
}

// RedlockOptions configure the redlock strategy; zero values take redsync's defaults.
type RedlockOptions struct {
	redisconn.Options
	// Tries per AcquireWaiting (default: redsync's 32); Acquire is always one try.
	Tries int
	// RetryDelay between AcquireWaiting's tries (default: redsync's, 50-250 ms at random).
	RetryDelay time.Duration
	// DriftFactor is the share of the TTL assumed lost to clock drift (redsync: 0.01).
	DriftFactor float64
	// TimeoutFactor bounds one attempt per node to TTL x factor (redsync: 0.05).
	TimeoutFactor float64
	// FailFast returns as soon as a majority answered instead of waiting for all nodes.
	FailFast bool
	// SetNXOnExtend makes Extend re-create the key on nodes that lost it.
	SetNXOnExtend bool
}

// RueidisOptions configure the rueidislock strategies; zero values take the library's defaults.
type RueidisOptions struct {
	// TryNextAfter bounds one SET by the library, and is its polling period without
	// client-side caching (rueidislock: 20 ms). Tests on a loaded machine raise it.
	TryNextAfter time.Duration
	// FallbackSETPX acquires by SET PX (a validity the server counts) instead of SET PXAT
	// (an instant on the client's clock); the library's extensions stay PEXPIREAT.
	FallbackSETPX bool
}
