package release

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/lab"
)

// getThenDelRelease is UNSAFE on purpose (see unsafe_lockers.go): a correct SET NX PX
// locker whose release is two commands, GET the key and compare the token in the
// client, then DEL. A TTL that runs out between the two lets the DEL remove the next
// holder's lock. The DEL is sent as GETDEL: it deletes exactly as DEL does, and its
// answer is the value that very step removed, the proof of whose lock it was.
type getThenDelRelease struct {
	locks.Locker
	client *redis.Client
	// between runs after the check passed and before the DEL (the pause of a trial).
	between func(ctx context.Context) error
	// deleted hears, for every DEL sent, when the check answered and what the DEL
	// removed ("" when the key was already gone).
	deleted func(lease locks.Lease, checked time.Time, removed string)
}

func newGetThenDelRelease(inner locks.Locker, addr string) *getThenDelRelease {
	return &getThenDelRelease{Locker: inner, client: lab.PlainClient(addr)}
}

func (g *getThenDelRelease) Strategy() string { return "unsafe-get-then-del-release" }

func (g *getThenDelRelease) Release(ctx context.Context, lease locks.Lease) error {
	owner, err := g.client.Get(ctx, lease.Key).Result()
	if errors.Is(err, redis.Nil) || (err == nil && owner != lease.Token) {
		return locks.ErrNotHeld
	}
	if err != nil {
		return err
	}
	checked := time.Now()
	if g.between != nil {
		if err := g.between(ctx); err != nil {
			return err
		}
	}
	removed, err := g.client.GetDel(ctx, lease.Key).Result()
	if errors.Is(err, redis.Nil) {
		removed, err = "", nil
	}
	if err != nil {
		return err
	}
	if g.deleted != nil {
		g.deleted(lease, checked, removed)
	}
	return nil // the client believes its check: it never learns whose key it deleted
}

func (g *getThenDelRelease) Close() error { return errors.Join(g.client.Close(), g.Locker.Close()) }
