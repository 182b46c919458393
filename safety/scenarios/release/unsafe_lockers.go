package release

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/lab"
)

// The lockers in this file are UNSAFE on purpose: they are the mistakes the safety
// lab reproduces. Never use them for anything else.

// unsafeSetNXThenExpire takes the lock in two commands, SETNX then EXPIRE. A client
// that dies between them leaves a key with no expiry: a lock nobody can ever take.
// between runs after SETNX and before EXPIRE: the scenario's nemesis strikes there.
type unsafeSetNXThenExpire struct {
	client  *redis.Client
	between func(ctx context.Context) error
}

func newUnsafeSetNXThenExpire(addr string, between func(ctx context.Context) error) *unsafeSetNXThenExpire {
	return &unsafeSetNXThenExpire{client: lab.PlainClient(addr), between: between}
}

func (u *unsafeSetNXThenExpire) Strategy() string { return "unsafe-setnx-then-expire" }
func (u *unsafeSetNXThenExpire) Close() error     { return u.client.Close() }

func (u *unsafeSetNXThenExpire) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	lease := locks.Lease{Key: key, Token: locks.NewToken(), Start: time.Now()}
	ok, err := u.client.SetNX(ctx, key, lease.Token, 0).Result()
	if err != nil {
		return locks.Lease{}, err
	}
	if !ok {
		return locks.Lease{}, locks.ErrNotAcquired
	}
	if u.between != nil {
		if err := u.between(ctx); err != nil {
			return locks.Lease{}, fmt.Errorf("between SETNX and EXPIRE: %w", err)
		}
	}
	if err := u.client.Expire(ctx, key, ttl).Err(); err != nil {
		return locks.Lease{}, err
	}
	lease.ValidUntil = lease.Start.Add(ttl)
	return lease, nil
}

func (u *unsafeSetNXThenExpire) Release(ctx context.Context, lease locks.Lease) error {
	return unsafeDel(ctx, u.client, lease)
}

func (u *unsafeSetNXThenExpire) Extend(ctx context.Context, lease locks.Lease, ttl time.Duration) (locks.Lease, error) {
	return lease, errors.New("unsafe-setnx-then-expire: extend not supported")
}

// unsafeDelRelease is a correct locker whose release is a plain DEL: it deletes the
// key whoever owns it now, so a holder whose TTL ran out frees the next holder's lock.
type unsafeDelRelease struct {
	locks.Locker
	client *redis.Client
}

func newUnsafeDelRelease(inner locks.Locker, addr string) *unsafeDelRelease {
	return &unsafeDelRelease{Locker: inner, client: lab.PlainClient(addr)}
}

func (u *unsafeDelRelease) Strategy() string { return "unsafe-del-release" }

func (u *unsafeDelRelease) Release(ctx context.Context, lease locks.Lease) error {
	return unsafeDel(ctx, u.client, lease)
}

func (u *unsafeDelRelease) Close() error { return errors.Join(u.client.Close(), u.Locker.Close()) }

func unsafeDel(ctx context.Context, c *redis.Client, lease locks.Lease) error {
	n, err := c.Del(ctx, lease.Key).Result()
	if err != nil {
		return err
	}
	if n == 0 {
		return locks.ErrNotHeld
	}
	return nil
}
