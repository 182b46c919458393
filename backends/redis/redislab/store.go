// Package redislab is Redis's safety adapter: how the lab's scenarios reach one
// master, a replicated master, a sentinel deployment and Redlock's masters (the
// primary, a promotion, a lagging replica, the key and its fence).
package redislab

import (
	"context"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
)

// masterStore is a Redis deployment with a fixed master (single, replicated); the
// sentinel and Redlock adapters build on it. Redis locks carry no fence: a fenced
// locker INCRs fence:<key> on the master after each grant, the common recipe.
type masterStore struct {
	lab.RedisKeys
	strategy string
	spec     backend.Spec
}

// Adapters are each Redis kind's.
var Adapters = map[backend.Kind]lab.StoreMaker{
	topologies.Single:     newMasterStore,
	topologies.Replicated: newMasterStore,
	topologies.Sentinel: func(strategy string, spec backend.Spec) lab.Store {
		return sentinelStore{masterStore{strategy: strategy, spec: spec}}
	},
	topologies.Redlock: func(strategy string, spec backend.Spec) lab.Store {
		return redlockStore{masterStore{strategy: strategy, spec: spec}}
	},
}

func newMasterStore(strategy string, spec backend.Spec) lab.Store {
	return masterStore{strategy: strategy, spec: spec}
}

func (s masterStore) Strategy() string                           { return s.strategy }
func (s masterStore) Spec() backend.Spec                         { return s.spec }
func (s masterStore) GrantedTTL(ttl time.Duration) time.Duration { return ttl }
func (s masterStore) FenceSource() string                        { return "INCR fence:<key> on the master" }

func (s masterStore) Locker(ctx context.Context, topo topologies.Topology, fenced bool) (locks.Locker, error) {
	return s.locker(ctx, topo, fenced, "")
}

// clientHolder is a locker that shares its Redis connection.
type clientHolder interface {
	Client() goredis.UniversalClient
}

// locker builds the strategy's locker, with a fencing counter on counterAddr ("": on
// the locker's own connection).
func (s masterStore) locker(ctx context.Context, topo topologies.Topology, fenced bool,
	counterAddr string) (locks.Locker, error) {
	l, err := locks.ForTopology(ctx, s.strategy, topo, locks.Options{})
	if err != nil || !fenced {
		return l, err
	}
	// The counter shares the locker's connection where it has one, so that it follows
	// the same failovers; otherwise it gets its own.
	if c, ok := l.(clientHolder); ok && counterAddr == "" {
		return lab.CounterFenced(l, c.Client(), false), nil
	}
	if counterAddr == "" {
		counterAddr = topo.Masters()[0].Addr() // a library's own client: the counter on the fixed master
	}
	return lab.CounterFenced(l, lab.PlainClient(counterAddr), true), nil
}
