// bsm-redislock: github.com/bsm/redislock as shipped, SET NX PX by Lua on one master; it waits only with a
// RetryStrategy (none here: its default is one attempt), and nothing extends a held lock for it (no watchdog).

package redislock

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	bsm "github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/topologies"
)

const bsmName = "bsm-redislock"

// bsmCommands are all the library sends: go-redis runs each of its scripts by EVALSHA,
// then by EVAL when the server lacks it (the library loads nothing beforehand).
var bsmCommands = []string{"EVALSHA", "EVAL"}

func init() {
	redisconn.Allow(bsmName, bsmCommands)
	locks.Register(bsmName, topologies.Spec{Kind: topologies.Single},
		func(ctx context.Context, topo topologies.Topology, o locks.Options) (locks.Locker, error) {
			return NewBSM(topo.Masters()[0].Addr(), o.RedisOptions), nil
		})
	locks.RegisterAddressed(bsmName, func(ctx context.Context, addrs []string, o locks.Options) (locks.Locker, error) {
		if len(addrs) != 1 {
			return nil, fmt.Errorf("%s: one master's address, got %d", bsmName, len(addrs))
		}
		return NewBSM(addrs[0], o.RedisOptions), nil
	})
}

// bsmLocker adapts the library to one attempt per Acquire. The library releases and
// refreshes only through the *Lock its Obtain returned, so the locker keeps each
// granted lock by token until it is given back or found lost.
type bsmLocker struct {
	client  *redis.Client
	library *bsm.Client
	timeout time.Duration // one command's bound, for the clean-up after a cut-off attempt
	held    sync.Map      // token -> *bsm.Lock
}

// NewBSM locks through bsm/redislock on the Redis server at addr, over the house's client.
func NewBSM(addr string, opts locks.RedisOptions) locks.Locker {
	c := redisconn.NewClient(addr, bsmName, opts)
	return &bsmLocker{client: c, library: bsm.New(c), timeout: opts.CommandTimeout()}
}

func (b *bsmLocker) Strategy() string { return bsmName }
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

func (b *bsmLocker) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	if err := checkBSMTTL(ttl); err != nil {
		return locks.Lease{}, err
	}
	// Our token, so that the key holds Lease.Token and a cut-off attempt can be undone.
	lease := locks.Lease{Key: key, Token: locks.NewToken(), Start: time.Now()}
	lock, err := b.library.Obtain(ctx, key, ttl, &bsm.Options{Token: lease.Token})
	if err != nil {
		return locks.Lease{}, b.obtainFailed(ctx, lease, ttl, err)
	}
	b.held.Store(lock.Token(), lock)
	lease.ValidUntil = lease.Start.Add(ttl)
	return lease, nil
}

// obtainFailed maps Obtain's error, giving back first what a cut-off attempt may hold.
func (b *bsmLocker) obtainFailed(ctx context.Context, lease locks.Lease, ttl time.Duration, err error) error {
	if errors.Is(err, bsm.ErrNotObtained) {
		return fmt.Errorf("%w (%v)", locks.ErrNotAcquired, err)
	}
	if ctx.Err() != nil {
		b.giveBack(ctx, lease, ttl)
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
