// bsm-redislock: github.com/bsm/redislock as shipped, SET NX PX by Lua on one master; it waits only with a
// RetryStrategy (none by default: one attempt; -linear and -exp wait with its backoffs, bsmbackoff.go), and
// nothing extends a held lock for it (no watchdog).

package redislock

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	bsm "github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/redisconn"
)

const bsmName = "bsm-redislock"

// bsmCommands are all the library sends: go-redis runs each of its scripts by EVALSHA,
// then by EVAL when the server lacks it (the library loads nothing beforehand).
var bsmCommands = []string{"EVALSHA", "EVAL"}

// bsmVariant is how one bsm-redislock strategy waits: the RetryStrategy its
// AcquireWaiting passes to Obtain (a new one per wait: the exponential one counts).
type bsmVariant struct {
	name     string
	position int
	waiting  string
	retry    func() bsm.RetryStrategy
}

// bsmDefault is the library as shipped: no RetryStrategy, one attempt.
var bsmDefault = bsmVariant{name: bsmName, position: 28, waiting: "bsm/redislock: no retry (its default): one attempt",
	retry: bsm.NoRetry}

func init() { declare(bsmStrategy(bsmDefault)) }

// bsmStrategy is the library waiting as v does, on one master.
func bsmStrategy(v bsmVariant) locks.Strategy {
	return atOneMaster(locks.Strategy{Strategy: backend.Strategy{Name: v.name, Position: v.position,
		SafetyRank: backend.RankOneMaster}, Spec: oneMaster, Commands: bsmCommands},
		func(_ context.Context, addr string, o locks.Options) (locks.Locker, error) {
			return newBSM(addr, v, o.Options), nil
		})
}

// bsmLocker adapts the library to one attempt per Acquire. The library releases and
// refreshes only through the *Lock its Obtain returned, so the locker keeps each
// granted lock by token until it is given back or found lost.
type bsmLocker struct {
	bsmVariant
	client  *redis.Client
	library *bsm.Client
	timeout time.Duration // one command's bound, for the clean-up after a cut-off attempt
	held    sync.Map      // token -> *bsm.Lock
}

// NewBSM locks through bsm/redislock on the Redis server at addr, over the house's
// client; it waits as the library does by default: not at all.
func NewBSM(addr string, opts redisconn.Options) locks.Locker {
	return newBSM(addr, bsmDefault, opts)
}

func newBSM(addr string, v bsmVariant, opts redisconn.Options) *bsmLocker {
	c := redisconn.NewClient(addr, v.name, opts)
	return &bsmLocker{bsmVariant: v, client: c, library: bsm.New(c), timeout: opts.CommandTimeout()}
}

func (b *bsmLocker) Strategy() string { return b.name }
func (b *bsmLocker) Waiting() string  { return b.waiting }
func (b *bsmLocker) Close() error     { return b.client.Close() }

// Warm opens a connection per client to the server.
func (b *bsmLocker) Warm(ctx context.Context, w locks.WarmUp) error {
	return warmRedis(ctx, b.client, w.Clients)
}

// checkBSMTTL refuses what the library cannot send: it truncates the TTL to whole
// milliseconds, and a refresh of 0 ms would be PEXPIRE 0, which deletes the key.
func checkBSMTTL(ttl time.Duration) error {
	if ttl < time.Millisecond {
		return fmt.Errorf("ttl = %v: must be at least 1ms", ttl)
	}
	return nil
}

// Acquire is one Obtain with no retry.
func (b *bsmLocker) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	return b.obtain(ctx, key, ttl, bsm.NoRetry(), false)
}

// AcquireWaiting is one Obtain with the variant's RetryStrategy. Without a deadline on
// ctx the library stops retrying at the TTL (redislock.go, Obtain).
func (b *bsmLocker) AcquireWaiting(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	return b.obtain(ctx, key, ttl, b.retry(), true)
}

func (b *bsmLocker) obtain(ctx context.Context, key string, ttl time.Duration, retry bsm.RetryStrategy,
	waiting bool) (locks.Lease, error) {
	if err := checkBSMTTL(ttl); err != nil {
		return locks.Lease{}, err
	}
	// Our token, so that the key holds Lease.Token and a cut-off attempt can be undone.
	lease := locks.Lease{Key: key, Token: locks.NewToken(), Start: time.Now()}
	lock, err := b.library.Obtain(ctx, key, ttl, &bsm.Options{Token: lease.Token, RetryStrategy: retry})
	if err != nil {
		return locks.Lease{}, b.obtainFailed(ctx, lease, ttl, err, waiting)
	}
	if waiting {
		// The granting try began somewhere in the wait: from its return the lock is surely ours.
		lease.Start = time.Now()
	}
	b.held.Store(lock.Token(), lock)
	lease.ValidUntil = lease.Start.Add(ttl)
	return lease, nil
}

// obtainFailed maps Obtain's error, giving back first what a cut-off attempt may hold:
// cut off by ctx, or, in a wait, by the library's own bound (the TTL when ctx has none).
func (b *bsmLocker) obtainFailed(ctx context.Context, lease locks.Lease, ttl time.Duration, err error,
	waiting bool) error {
	if errors.Is(err, bsm.ErrNotObtained) {
		return fmt.Errorf("%w (%v)", locks.ErrNotAcquired, err)
	}
	gaveUp := waiting && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded)
	if ctx.Err() != nil || gaveUp {
		b.giveBack(ctx, lease, ttl)
	}
	if gaveUp {
		return fmt.Errorf("%w (%s: gave up after %v, its bound on a wait without a deadline)",
			locks.ErrNotAcquired, b.name, ttl)
	}
	return err
}

// giveBack frees a key a cut-off Obtain may have set, in a context of its own. Obtain
// with the same token takes the key back if it holds that token (or is free); a key
// another owner holds is refused and left alone.
func (b *bsmLocker) giveBack(ctx context.Context, lease locks.Lease, ttl time.Duration) {
	cleanup, cancel := cutOffCleanup(ctx, b.timeout)
	defer cancel()
	lock, err := b.library.Obtain(cleanup, lease.Key, ttl, &bsm.Options{Token: lease.Token})
	if err == nil {
		_ = lock.Release(cleanup)
	}
}

// heldLock is the library's lock behind lease, or nil when this locker did not grant
// it or already found it given back or lost.
func (b *bsmLocker) heldLock(lease locks.Lease) *bsm.Lock {
	v, ok := b.held.Load(lease.Token)
	if !ok || v.(*bsm.Lock).Key() != lease.Key {
		return nil
	}
	return v.(*bsm.Lock)
}

func (b *bsmLocker) Release(ctx context.Context, lease locks.Lease) error {
	lock := b.heldLock(lease)
	if lock == nil {
		return locks.ErrNotHeld
	}
	err := lock.Release(ctx)
	if err == nil || errors.Is(err, bsm.ErrLockNotHeld) {
		b.held.Delete(lease.Token) // answered: nothing left to give back
	}
	if errors.Is(err, bsm.ErrLockNotHeld) {
		return fmt.Errorf("%w (%v)", locks.ErrNotHeld, err)
	}
	return err
}

func (b *bsmLocker) Extend(ctx context.Context, lease locks.Lease, ttl time.Duration) (locks.Lease, error) {
	if err := checkBSMTTL(ttl); err != nil {
		return lease, err
	}
	lock := b.heldLock(lease)
	if lock == nil {
		return lease, locks.ErrNotHeld
	}
	start := time.Now()
	// Refresh says ErrNotObtained when the key is no longer the lock's.
	if err := lock.Refresh(ctx, ttl, nil); errors.Is(err, bsm.ErrNotObtained) {
		b.held.Delete(lease.Token)
		return lease, fmt.Errorf("%w (%v)", locks.ErrNotHeld, err)
	} else if err != nil {
		return lease, err
	}
	lease.ValidUntil = start.Add(ttl)
	return lease, nil
}
