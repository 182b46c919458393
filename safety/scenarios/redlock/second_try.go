package redlock

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/lab"
)

// secondTry is B's brief try (300 ms) for the key the holder has after the fault.
func secondTry(ctx context.Context, b *lab.Client, key string, ttl time.Duration, res *lab.Resource,
	dwell time.Duration) error {
	_, err := lab.SecondTry(ctx, b, key, ttl, res, 300*time.Millisecond, 20*time.Millisecond, dwell)
	return err
}

// secondTryAfterHolder is B's try once the holder has stopped, where B must get in: up
// to 20 s, since on a loaded machine its first attempts past an empty restart of three
// nodes outlasted secondTry's 300 ms.
func secondTryAfterHolder(ctx context.Context, b *lab.Client, key string, ttl time.Duration, res *lab.Resource,
	dwell time.Duration) error {
	_, err := lab.SecondTry(ctx, b, key, ttl, res, 20*time.Second, 20*time.Millisecond, dwell)
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
