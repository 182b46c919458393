package lab

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
)

// RedisStore is a Redis deployment with a fixed master (single, replicated); the
// sentinel and Redlock adapters build on it. Redis locks carry no fence: a fenced
// locker INCRs fence:<key> on the master after each grant, the common recipe.
type RedisStore struct {
	strategy string
	spec     topologies.Spec
}

func init() {
	registerStore(topologies.Single, newRedisStore)
	registerStore(topologies.Replicated, newRedisStore)
}

func newRedisStore(strategy string, spec topologies.Spec) Store {
	return RedisStore{strategy: strategy, spec: spec}
}

func (s RedisStore) Strategy() string                           { return s.strategy }
func (s RedisStore) Spec() topologies.Spec                      { return s.spec }
func (s RedisStore) GrantedTTL(ttl time.Duration) time.Duration { return ttl }
func (s RedisStore) FenceSource() string                        { return "INCR fence:<key> on the master" }

func (s RedisStore) Locker(ctx context.Context, topo topologies.Topology, fenced bool) (locks.Locker, error) {
	return s.locker(ctx, topo, fenced, "")
}

// locker builds the strategy's locker, with a fencing counter on counterAddr ("": on
// the locker's own connection).
func (s RedisStore) locker(ctx context.Context, topo topologies.Topology, fenced bool, counterAddr string) (locks.Locker, error) {
	l, err := locks.ForTopology(ctx, s.strategy, topo, locks.Options{})
	if err != nil || !fenced {
		return l, err
	}
	// The counter shares the locker's connection where it has one, so that it follows
	// the same failovers; otherwise it gets its own.
	if c, ok := l.(interface{ Client() redis.UniversalClient }); ok && counterAddr == "" {
		return &fencedLocker{Locker: l, counter: c.Client()}, nil
	}
	return &fencedLocker{Locker: l, counter: PlainClient(counterAddr), ownsCounter: true}, nil
}

func (s RedisStore) ReadKey(ctx context.Context, _ topologies.Topology, primary topologies.Node, key string) (topologies.KeyState, error) {
	return topologies.ReadKey(ctx, primary.Addr(), key)
}

// nodeAt is the node of topo listening on addr.
func nodeAt(topo topologies.Topology, addr string) (topologies.Node, error) {
	for _, n := range topo.Nodes() {
		if n.Addr() == addr {
			return n, nil
		}
	}
	return nil, fmt.Errorf("no node of the topology listens on %s", addr)
}
