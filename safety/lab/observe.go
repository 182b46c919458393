package lab

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/safety/history"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// ObserveKey reads key on node through the store and records what it found, as the
// observer. A read that fails is an error of the trial, never an absent key.
func ObserveKey(ctx context.Context, t *Trial, kr KeyReader, topo topologies.Topology, node topologies.Node,
	key string) (redisadmin.KeyState, error) {
	octx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	s, err := kr.ReadKey(octx, topo, node, key)
	if err != nil {
		return s, Failed("observe", fmt.Errorf("read %s on %s: %w", key, node.Name(), err))
	}
	ttl := s.TTL
	if ttl < 0 {
		ttl = history.NoExpiry
	}
	t.Rec.Record(history.Event{Client: "observer", Kind: history.Observed, Key: key, Node: node.Addr(),
		Present: s.Present, Holder: s.Value, TTL: ttl})
	return s, nil
}

// PlainClient is a no-retry client for one address, for fencing counters and probes.
func PlainClient(addr string) *redis.Client {
	return redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, Protocol: 2, DisableIdentity: true})
}
