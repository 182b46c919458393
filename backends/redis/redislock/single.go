package redislock

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/redisconn"
)

// setNX is the core of the single, wait and sentinel strategies: SET key token NX PX
// ttl on whatever server client points at; release and extend by Lua, called by EVALSHA.
type setNX struct {
	name    string
	client  redis.UniversalClient
	timeout time.Duration // one command's bound, for the clean-up after a cut-off attempt
}

func newSetNX(ctx context.Context, name string, client redis.UniversalClient, timeout time.Duration) (*setNX, error) {
	// Load the scripts once so that every later call is an EVALSHA (go-redis falls back
	// to EVAL by itself when a restarted or promoted server lacks them).
	for _, s := range []*redis.Script{releaseScript, extendScript} {
		if err := LoadScript(ctx, client, s); err != nil {
			client.Close()
			return nil, fmt.Errorf("%s: load scripts: %w", name, err)
		}
	}
	return &setNX{name: name, client: client, timeout: timeout}, nil
}

// LoadScript loads s where client runs scripts: its server, or a cluster's masters.
// On a cluster, a master that does not answer (dead, or failing over) does not stop a
// new locker: it gets the script by EVAL on first use (go-redis falls back on
// NOSCRIPT); the load fails only when no master took it.
func LoadScript(ctx context.Context, client redis.UniversalClient, s *redis.Script) error {
	cluster, ok := client.(*redis.ClusterClient)
	if !ok {
		return s.Load(ctx, client).Err()
	}
	var mu sync.Mutex
	var loaded int
	var last error
	err := cluster.ForEachMaster(ctx, func(ctx context.Context, master *redis.Client) error {
		err := s.Load(ctx, master).Err()
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			last = err
		} else {
			loaded++
		}
		return nil
	})
	switch {
	case err != nil:
		return err
	case loaded == 0:
		return fmt.Errorf("no master took the script: %w", last)
	}
	return nil
}

// NewSetNX is the SET NX locker named name over any go-redis client: a store outside
// this package (a cluster's client) takes, releases and extends as single does.
func NewSetNX(ctx context.Context, name string, client redis.UniversalClient, timeout time.Duration) (*SetNX, error) {
	core, err := newSetNX(ctx, name, client, timeout)
	if err != nil {
		return nil, err
	}
	return &SetNX{core}, nil
}

// SetNX is the exported face of the SET NX core, for NewSetNX's callers.
type SetNX struct{ *setNX }

// GiveBack releases lease, with a context of its own once ctx has ended: the giveBack
// AcquireAcknowledged takes.
func (s *SetNX) GiveBack(ctx context.Context, lease locks.Lease) { s.giveBack(ctx, lease) }

func (s *setNX) Strategy() string { return s.name }
func (s *setNX) Close() error     { return s.client.Close() }

// Warm opens a connection per client to the server (the master, for sentinel).
func (s *setNX) Warm(ctx context.Context, w locks.WarmUp) error {
	return warmRedis(ctx, s.client, w.Clients)
}

// Client is the connection the locker sends its commands on: a fencing counter kept
// on the same Redis (and following the same failovers) uses it.
func (s *setNX) Client() redis.UniversalClient { return s.client }

func (s *setNX) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	if ttl <= 0 {
		return locks.Lease{}, fmt.Errorf("ttl = %v: must be > 0", ttl)
	}
	lease := locks.Lease{Key: key, Token: locks.NewToken(), Start: time.Now()}
	ok, err := s.client.SetNX(ctx, key, lease.Token, ttl).Result()
	if err != nil {
		if ctx.Err() != nil {
			// Cut off: the SET may have landed. Other failures are left alone: against a
			// paused server a second command would only double the attempt's cost.
			s.giveBack(ctx, lease)
		}
		return locks.Lease{}, err
	}
	if !ok {
		return locks.Lease{}, locks.ErrNotAcquired
	}
	lease.ValidUntil = lease.Start.Add(ttl)
	return lease, nil
}

// giveBack releases lease's key with ctx or, once ctx has ended, with a context of its own.
func (s *setNX) giveBack(ctx context.Context, lease locks.Lease) {
	if ctx.Err() != nil {
		cleanup, cancel := cutOffCleanup(ctx, s.timeout)
		defer cancel()
		ctx = cleanup
	}
	_ = s.Release(ctx, lease)
}

func (s *setNX) Release(ctx context.Context, lease locks.Lease) error {
	n, err := releaseScript.Run(ctx, s.client, []string{lease.Key}, lease.Token).Int()
	if err != nil {
		return err
	}
	if n == 0 {
		return locks.ErrNotHeld
	}
	return nil
}

func (s *setNX) Extend(ctx context.Context, lease locks.Lease, ttl time.Duration) (locks.Lease, error) {
	if ttl <= 0 {
		return lease, fmt.Errorf("ttl = %v: must be > 0", ttl)
	}
	start := time.Now()
	n, err := extendScript.Run(ctx, s.client, []string{lease.Key}, lease.Token, ttl.Milliseconds()).Int()
	if err != nil {
		return lease, err
	}
	if n == 0 {
		return lease, locks.ErrNotHeld
	}
	lease.ValidUntil = start.Add(ttl)
	return lease, nil
}

// NewSingle locks on one Redis server at addr.
func NewSingle(ctx context.Context, addr string, opts redisconn.Options) (locks.Locker, error) {
	return newSingleFor(ctx, addr, "single", opts)
}

// newSingleFor is NewSingle whose client serves purpose (wait sends WAIT too).
func newSingleFor(ctx context.Context, addr, purpose string, opts redisconn.Options) (*setNX, error) {
	c := redisconn.NewClient(addr, purpose, opts)
	return newSetNX(ctx, purpose, c, opts.CommandTimeout())
}
