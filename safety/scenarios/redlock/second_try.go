package redlock

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/lab"
)

// How long B asks for the key after the fault: briefly where the holder still has it
// on a majority (its refusals are the answer), up to 20 s where B must get in, the
// holder stopped or its key gone from a majority (on a loaded machine B's first
// attempts past an empty restart, and past a host crash that lost the key, outlasted
// 300 ms).
const (
	briefTry       = 300 * time.Millisecond
	tryAfterHolder = 20 * time.Second
)

// secondTry is B's try, for as long as try, for the key the holder had before the fault.
func secondTry(ctx context.Context, b *lab.Client, key string, ttl time.Duration, res *lab.Resource,
	try, dwell time.Duration) error {
	_, err := lab.SecondTry(ctx, b, key, ttl, res, try, 20*time.Millisecond, dwell)
	return err
}

// finishHolder has the holder, still inside, write, leave and release after B's try.
// Its validity must outlast the try: an overlap after it would be the holder's own
// fault, not the fault's.
func finishHolder(ctx context.Context, a *lab.Client, res *lab.Resource, lease locks.Lease, ttl time.Duration) error {
	if time.Now().After(lease.ValidUntil) {
		return lab.Failed("timing", fmt.Errorf(
			"%s's validity ended before B was done: the %v TTL is too short for this machine", a.ID, ttl))
	}
	a.Write(ctx, res, lease)
	a.Leave(res, lease)
	_ = a.Release(ctx, lease) // refused where B took the majority: expected
	return nil
}
