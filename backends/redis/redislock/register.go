// Package redislock is Redis's lockers: SET NX PX with a Lua release (single), the
// same plus WAIT (wait), through sentinels (sentinel) and Redlock over independent
// masters; it registers them by name with the locks registry, also at chosen addresses.
package redislock

import (
	"context"
	"fmt"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/topologies"
)

// lockCommands take, release and extend a SET NX lock; the scripts are loaded once and
// called by EVALSHA, with EVAL as go-redis's fallback on NOSCRIPT. INCR is the fencing
// counter a fenced locker keeps on the lock's own connection (it follows its failovers).
var lockCommands = []string{"SET", "EVALSHA", "EVAL", "SCRIPT LOAD", "INCR"}

// The strategies' allow-lists: what each may send (redisconn's hook refuses the rest).
func init() {
	for _, name := range []string{"single", "sentinel", "redlock", "redlock-failfast"} {
		redisconn.Allow(name, lockCommands)
	}
	redisconn.Allow("wait", append([]string{"WAIT"}, lockCommands...))
}

// The strategies of Redis's four deployments, each built over its running topology.
func init() {
	locks.Register("single", backend.Spec{Kind: topologies.Single},
		func(ctx context.Context, topo topologies.Topology, o locks.Options) (locks.Locker, error) {
			return NewSingle(ctx, topo.Masters()[0].Addr(), o.RedisOptions)
		})
	locks.Register("wait", backend.Spec{Kind: topologies.Replicated},
		func(ctx context.Context, topo topologies.Topology, o locks.Options) (locks.Locker, error) {
			w := o.Wait
			w.RedisOptions = o.RedisOptions
			return NewWait(ctx, topo.Masters()[0].Addr(), w)
		})
	locks.Register("sentinel", backend.Spec{Kind: topologies.Sentinel},
		func(ctx context.Context, topo topologies.Topology, o locks.Options) (locks.Locker, error) {
			return NewSentinel(ctx, topologies.Addrs(topo.Sentinels()),
				SentinelOptions{RedisOptions: o.RedisOptions, MasterName: topo.Spec().MasterName})
		})
	locks.Register("redlock", backend.Spec{Kind: topologies.Redlock}, redlockBuilder("redlock", false))
	// redlock-failfast answers once a majority has, instead of waiting for every node:
	// the variant to compare when one node is slow.
	locks.Register("redlock-failfast", backend.Spec{Kind: topologies.Redlock}, redlockBuilder("redlock-failfast", true))
}

// The strategies a scenario builds at the servers it picked, with the same options.
func init() {
	locks.RegisterAddressed("single", func(ctx context.Context, addrs []string, o locks.Options) (locks.Locker, error) {
		if len(addrs) != 1 {
			return nil, fmt.Errorf("single: one master's address, got %d", len(addrs))
		}
		return NewSingle(ctx, addrs[0], o.RedisOptions)
	})
	locks.RegisterAddressed("wait", func(ctx context.Context, addrs []string, o locks.Options) (locks.Locker, error) {
		if len(addrs) != 1 {
			return nil, fmt.Errorf("wait: one master's address, got %d", len(addrs))
		}
		w := o.Wait
		w.RedisOptions = o.RedisOptions
		return NewWait(ctx, addrs[0], w)
	})
	locks.RegisterAddressed("redlock", func(ctx context.Context, addrs []string, o locks.Options) (locks.Locker, error) {
		r := o.Redlock
		r.RedisOptions = o.RedisOptions
		return NewRedlock(ctx, addrs, r)
	})
}

// redlockBuilder builds Redlock over every master of the topology, under name.
func redlockBuilder(name string, failFast bool) locks.Builder {
	return func(ctx context.Context, topo topologies.Topology, o locks.Options) (locks.Locker, error) {
		r := o.Redlock
		r.RedisOptions = o.RedisOptions
		r.FailFast = failFast
		l, err := NewRedlock(ctx, topologies.Addrs(topo.Masters()), r)
		if err == nil {
			l.(*redlock).name = name
		}
		return l, err
	}
}
