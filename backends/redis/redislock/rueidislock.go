// rueidislock: github.com/redis/rueidis/rueidislock as shipped, on one server (KeyMajority 1): SET NX PXAT by
// Lua, a watchdog that pushes a held key's expiry every KeyValidity/2, and a wait woken by client-side-caching
// invalidations (rueidislock) or polling every TryNextAfter (rueidislock-nocache). docs/libraries.md has more.

package redislock

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidislock"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/heldlease"
	"github.com/lockbench/lockbench/locks/rueidislayout"
	"github.com/lockbench/lockbench/redisconn"
)

const (
	rueidisName        = "rueidislock"
	rueidisNoCacheName = "rueidislock-nocache"
	// rueidisTryNextAfter is the library's default TryNextAfter (rueidislock/lock.go, NewLocker).
	rueidisTryNextAfter = 20 * time.Millisecond
)

// The library on one master, woken by client-side caching, or by polling alone.
func init() {
	for i, name := range []string{rueidisName, rueidisNoCacheName} {
		noCache := name == rueidisNoCacheName
		declare(atOneMaster(locks.Strategy{Strategy: backend.Strategy{Name: name, Position: 29 + i,
			SafetyRank: backend.RankOneMaster}, Spec: oneMaster, Traits: []locks.Trait{locks.ExtendsItself}},
			func(_ context.Context, addr string, o locks.Options) (locks.Locker, error) {
				return NewRueidis(addr, name, noCache, o)
			}))
	}
}

// rueidisLocker adapts the library's locks, which live as long as a context, to leases
// with a TTL. The library has no TTL per lock: its key's validity (5 s) is pushed by
// its watchdog while the lock's context lives, so the adapter ends that context at
// the lease's TTL, and Extend moves that end.
type rueidisLocker struct {
	name    string
	waiting string
	library rueidislock.Locker
	held    heldlease.Table[rueidisHold]
}

// rueidisHold is one granted lock: the library's context (done once the lock is lost
// or given back), the library's release, and end, which ends the lock's context.
type rueidisHold struct {
	lock         context.Context
	release, end func()
}

// NewRueidis locks through rueidislock on the Redis server at addr, with client-side
// caching unless noCache. The library sends through its own client (rueidis), which
// redisconn's allow-list and key guard cannot wrap: it runs only on servers whose keys
// are all lockbench's (no run prefix).
func NewRueidis(addr, name string, noCache bool, o locks.Options) (locks.Locker, error) {
	return newRueidis([]string{addr}, name, noCache, 1, o) // one server: one key
}

// NewRueidisCluster locks through rueidislock on the Redis Cluster seeds belong to, with
// the library's KeyMajority (2 of 3 keys, each in the slot its name hashes to).
func NewRueidisCluster(seeds []string, name string, noCache bool, o locks.Options) (locks.Locker, error) {
	return newRueidis(seeds, name, noCache, rueidislayout.ClusterMajority, o)
}

func newRueidis(seeds []string, name string, noCache bool, majority int32, o locks.Options) (locks.Locker, error) {
	if o.KeyPrefix != "" {
		return nil, fmt.Errorf("%s: its client passes no key guard, so it does not run on a shared server", name)
	}
	lib, err := rueidislock.NewLocker(rueidislock.LockerOption{
		ClientOption:  rueidisClient(seeds, noCache, o.Options),
		KeyMajority:   majority,
		TryNextAfter:  o.Rueidis.TryNextAfter,
		FallbackSETPX: o.Rueidis.FallbackSETPX,
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	period := o.Rueidis.TryNextAfter
	if period <= 0 {
		period = rueidisTryNextAfter
	}
	waiting := "rueidislock: woken by client-side-caching invalidations of the key, no timeout"
	if noCache {
		waiting = fmt.Sprintf("rueidislock: polls every %v (TryNextAfter), no client-side caching", period)
	}
	return &rueidisLocker{name: name, waiting: waiting, library: lib}, nil
}

// rueidisClient is the library's client with the house's address, access and bounds.
func rueidisClient(seeds []string, noCache bool, o redisconn.Options) rueidis.ClientOption {
	c := rueidis.ClientOption{
		InitAddress:      seeds,
		Username:         o.Access.Username,
		Password:         o.Access.Password,
		TLSConfig:        o.Access.TLS,
		DisableCache:     noCache,
		ConnWriteTimeout: o.CommandTimeout(),
		Dialer:           net.Dialer{Timeout: o.CommandTimeout()},
	}
	if dial := o.Dialer; dial != nil {
		// A network profile routes every connection through its proxies.
		c.DialCtxFn = func(ctx context.Context, dst string, _ *net.Dialer, cfg *tls.Config) (net.Conn, error) {
			conn, err := dial(ctx, "tcp", dst)
			if err != nil || cfg == nil {
				return conn, err
			}
			return tls.Client(conn, cfg), nil
		}
	}
	return c
}

func (r *rueidisLocker) Strategy() string { return r.name }
func (r *rueidisLocker) Waiting() string  { return r.waiting }

// Close gives back what is still held, each key deleted before the client closes: the
// library's own Close closes its client while its deletes may still be on the way,
// which would leave a key to its 5 s validity, past the lease's TTL.
func (r *rueidisLocker) Close() error {
	for _, h := range r.held.Close() {
		h.Value.release()
	}
	r.library.Close()
	return nil
}

// Acquire is one TryWithContext: one SET NX on the server.
func (r *rueidisLocker) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	return r.take(ctx, key, ttl, false)
}

// AcquireWaiting is WithContext: tries, then waits for the key's invalidation (or
// TryNextAfter without caching) and tries again, until granted or ctx ends.
func (r *rueidisLocker) AcquireWaiting(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	return r.take(ctx, key, ttl, true)
}

// take runs the library's try or wait in a context of the lock's own: the library holds
// the lock until that context ends, so it must outlive ctx, which bounds only the acquire.
func (r *rueidisLocker) take(ctx context.Context, key string, ttl time.Duration, wait bool) (locks.Lease, error) {
	if ttl <= 0 {
		return locks.Lease{}, fmt.Errorf("ttl = %v: must be > 0", ttl)
	}
	lease := locks.Lease{Key: key, Token: locks.NewToken(), Start: time.Now()}
	life, end := context.WithCancel(context.WithoutCancel(ctx))
	// A cut-off acquire ends the lock's context: the library then deletes what it set.
	stop := context.AfterFunc(ctx, end)
	acquire := r.library.TryWithContext
	if wait {
		acquire = r.library.WithContext
	}
	lock, release, err := acquire(life, key)
	stop()
	if ctx.Err() != nil {
		end()
		if err == nil {
			release() // returns once the library has deleted the key
		}
		return locks.Lease{}, fmt.Errorf("%s: %w", r.name, ctx.Err())
	}
	if err != nil {
		end()
		return locks.Lease{}, r.acquireFailed(err)
	}
	if wait {
		// The granting try began somewhere in the wait: from its return the lock is surely ours.
		lease.Start = time.Now()
	}
	valid, err := r.keep(lease, rueidisHold{lock: lock, release: func() { release(); end() }, end: end}, ttl)
	if err != nil {
		return locks.Lease{}, err
	}
	lease.ValidUntil = valid
	return lease, nil
}

// acquireFailed maps the library's refusal to the house's; other errors (a SET that
// outlived TryNextAfter, a closed locker) stay as they are.
func (r *rueidisLocker) acquireFailed(err error) error {
	if errors.Is(err, rueidislock.ErrNotLocked) {
		return fmt.Errorf("%w (%s: %v)", locks.ErrNotAcquired, r.name, err)
	}
	return fmt.Errorf("%s: %w", r.name, err)
}

// keep records a granted lock until it ends (given back, lost, or past its TTL) and
// returns when its TTL ends it: the lock's context ends then, and the library deletes the key.
func (r *rueidisLocker) keep(lease locks.Lease, hold rueidisHold, ttl time.Duration) (time.Time, error) {
	validUntil := time.Now().Add(ttl)
	_, ok := r.held.Hold(lease.Token, lease.Key, validUntil, hold, func(h *heldlease.Lease[rueidisHold]) {
		if r.held.Expire(h, nil) {
			h.Value.end()
		}
	})
	if !ok {
		hold.release()
		return time.Time{}, fmt.Errorf("%s: %w", r.name, rueidislock.ErrLockerClosed)
	}
	// The library ended the lock (lost, or given back): the lease is no longer held.
	context.AfterFunc(hold.lock, func() {
		r.held.Take(lease.Token, lease.Key)
		hold.end()
	})
	return validUntil, nil
}

// heldLock is the library's live lock behind lease, or nil when this locker did not
// grant it or it has ended.
func (r *rueidisLocker) heldLock(lease locks.Lease) *heldlease.Lease[rueidisHold] {
	h := r.held.Get(lease.Token, lease.Key)
	if h == nil || h.Value.lock.Err() != nil {
		return nil
	}
	return h
}

// Lost is the library's lock context's end: an invalidation of the key (with
// client-side caching) or the watchdog's next extension finding it gone ends it.
func (r *rueidisLocker) Lost(lease locks.Lease) (<-chan struct{}, bool) {
	h := r.heldLock(lease)
	if h == nil {
		return nil, false
	}
	return h.Value.lock.Done(), true
}

// notHeld is the answer for a lease this locker no longer holds.
func (r *rueidisLocker) notHeld() error {
	return fmt.Errorf("%w (%s: given back, lost or past its TTL)", locks.ErrNotHeld, r.name)
}

// Release is the library's cancel: it ends the lock's context and returns once the key
// is deleted (by a script that deletes only the lock's own value).
func (r *rueidisLocker) Release(ctx context.Context, lease locks.Lease) error {
	h := r.held.Take(lease.Token, lease.Key)
	if h == nil || h.Value.lock.Err() != nil {
		return r.notHeld()
	}
	done := make(chan struct{})
	go func() {
		h.Value.release()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Extend sends nothing: the library's watchdog keeps the key on the server while the
// lock lives. It moves the moment the adapter ends the lock to ttl from now, and says
// ErrNotHeld once the library has ended it (the watchdog or an invalidation found the
// key gone or another's: with caching at once, without it at the next push).
func (r *rueidisLocker) Extend(ctx context.Context, lease locks.Lease, ttl time.Duration) (locks.Lease, error) {
	if ttl <= 0 {
		return lease, fmt.Errorf("ttl = %v: must be > 0", ttl)
	}
	h := r.heldLock(lease)
	validUntil := time.Now().Add(ttl)
	if h == nil || !r.held.Renew(h, validUntil) {
		return lease, r.notHeld()
	}
	lease.ValidUntil = validUntil
	return lease, nil
}
