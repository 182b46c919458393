package redislock

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/go-redsync/redsync/v4"
	redsyncredis "github.com/go-redsync/redsync/v4/redis"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/redisconn"
)

type redlock struct {
	name    string
	clients []*redis.Client
	rs      *redsync.Redsync
	opts    locks.RedlockOptions
}

// NewRedlock locks a majority of the independent masters at addrs through redsync.
func NewRedlock(ctx context.Context, addrs []string, opts locks.RedlockOptions) (locks.Locker, error) {
	if len(addrs) == 0 {
		return nil, errors.New("redlock: no node addresses")
	}
	r := &redlock{name: "redlock", opts: opts}
	var pools []redsyncredis.Pool
	for _, addr := range addrs {
		c := redisconn.NewClient(addr, r.name, opts.Options)
		r.clients = append(r.clients, c)
		pools = append(pools, goredis.NewPool(c))
	}
	r.rs = redsync.New(pools...)
	return r, nil
}

func (r *redlock) Strategy() string { return r.name }

func (r *redlock) Close() error {
	var errs []error
	for _, c := range r.clients {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

// mutex builds a redsync mutex for key; a non-empty token makes it act for that owner.
func (r *redlock) mutex(key, token string, ttl time.Duration) *redsync.Mutex {
	opts := []redsync.Option{
		redsync.WithExpiry(ttl),
		redsync.WithFailFast(r.opts.FailFast),
		redsync.WithGenValueFunc(func() (string, error) { return token, nil }),
		redsync.WithValue(token),
	}
	// Tries and the delay between them shape only LockContext (AcquireWaiting): left
	// alone, they are redsync's own.
	if r.opts.Tries > 0 {
		opts = append(opts, redsync.WithTries(r.opts.Tries))
	}
	if r.opts.RetryDelay > 0 {
		opts = append(opts, redsync.WithRetryDelay(r.opts.RetryDelay))
	}
	if r.opts.DriftFactor > 0 {
		opts = append(opts, redsync.WithDriftFactor(r.opts.DriftFactor))
	}
	if r.opts.TimeoutFactor > 0 {
		opts = append(opts, redsync.WithTimeoutFactor(r.opts.TimeoutFactor))
	}
	if r.opts.SetNXOnExtend {
		opts = append(opts, redsync.WithSetNXOnExtend())
	}
	return r.rs.NewMutex(key, opts...)
}

// Acquire is one try (TryLockContext): one round of SETs on every node.
func (r *redlock) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	return r.lock(ctx, key, ttl, (*redsync.Mutex).TryLockContext)
}

// AcquireWaiting is LockContext as shipped: tries until granted, up to 32 times, 50 to
// 250 ms apart at random (redsync.go, NewMutex), unless the options set them.
func (r *redlock) AcquireWaiting(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	lease, err := r.lock(ctx, key, ttl, (*redsync.Mutex).LockContext)
	if err == nil {
		// The granting try began somewhere in the wait: from its return the lock is surely ours.
		lease.Start = time.Now()
	}
	if err != nil && ctx.Err() != nil {
		// redsync answers a wait cut off between tries with its refusal: the caller's end, not the key's.
		return lease, fmt.Errorf("%w (redsync: %v)", ctx.Err(), err)
	}
	return lease, err
}

// Waiting names LockContext's tries and delays, redsync's unless the options set them.
func (r *redlock) Waiting() string {
	tries, delay := "32 tries", "50-250 ms apart at random"
	if r.opts.Tries > 0 {
		tries = fmt.Sprintf("%d tries", r.opts.Tries)
	}
	if r.opts.RetryDelay > 0 {
		delay = fmt.Sprintf("%v apart", r.opts.RetryDelay)
	}
	drift := 0.01
	if r.opts.DriftFactor > 0 {
		drift = r.opts.DriftFactor
	}
	return fmt.Sprintf("redsync: up to %s, %s, drift %g%%", tries, delay, 100*drift)
}

// lock takes key with one of redsync's ways to lock a mutex.
func (r *redlock) lock(ctx context.Context, key string, ttl time.Duration,
	lock func(*redsync.Mutex, context.Context) error) (locks.Lease, error) {
	if ttl <= 0 {
		return locks.Lease{}, fmt.Errorf("ttl = %v: must be > 0", ttl)
	}
	lease := locks.Lease{Key: key, Token: locks.NewToken(), Start: time.Now()}
	m := r.mutex(key, lease.Token, ttl)
	if err := lock(m, ctx); err != nil {
		if ctx.Err() != nil {
			// Cut off: redsync's own clean-up ran on the ended ctx, so SETs that landed
			// on some nodes are still there.
			r.giveBack(ctx, lease)
		}
		if isRedlockContention(err) {
			return locks.Lease{}, fmt.Errorf("%w (%v)", locks.ErrNotAcquired, err)
		}
		return locks.Lease{}, err
	}
	lease.ValidUntil = m.Until()
	return lease, nil
}

// giveBack releases lease's key on every node, in a context of its own.
func (r *redlock) giveBack(ctx context.Context, lease locks.Lease) {
	cleanup, cancel := cutOffCleanup(ctx, r.opts.CommandTimeout())
	defer cancel()
	_ = r.Release(cleanup, lease)
}

// Warm opens a connection per client to every node, the nodes in parallel.
func (r *redlock) Warm(ctx context.Context, w locks.WarmUp) error {
	errs := make([]error, len(r.clients))
	var wg sync.WaitGroup
	for i, c := range r.clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = warmRedis(ctx, c, w.Clients)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

func (r *redlock) Release(ctx context.Context, lease locks.Lease) error {
	ok, err := r.mutex(lease.Key, lease.Token, time.Second).UnlockContext(ctx)
	if !ok {
		return fmt.Errorf("%w (%v)", locks.ErrNotHeld, err)
	}
	return nil
}

func (r *redlock) Extend(ctx context.Context, lease locks.Lease, ttl time.Duration) (locks.Lease, error) {
	if ttl <= 0 {
		return lease, fmt.Errorf("ttl = %v: must be > 0", ttl)
	}
	m := r.mutex(lease.Key, lease.Token, ttl)
	ok, err := m.ExtendContext(ctx)
	if !ok {
		return lease, fmt.Errorf("%w (%v)", locks.ErrNotHeld, err)
	}
	lease.ValidUntil = m.Until()
	return lease, nil
}

// isRedlockContention says the attempt lost to other owners on some nodes, rather than
// failing only because nodes did not answer.
func isRedlockContention(err error) bool {
	var taken *redsync.ErrTaken
	var nodeTaken *redsync.ErrNodeTaken
	return errors.Is(err, redsync.ErrFailed) || errors.As(err, &taken) || errors.As(err, &nodeTaken)
}
