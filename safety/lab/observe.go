package lab

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/internal/timeout"
	"github.com/lockbench/lockbench/safety/history"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// ObserveKey reads key on node through the store and records what it found, as the
// observer. A read that fails is an error of the trial, never an absent key.
func ObserveKey(ctx context.Context, t *Trial, kr KeyReader, topo topologies.Topology, node topologies.Node,
	key string) (redisadmin.KeyState, error) {
	s, err := readKeyPatiently(ctx, kr, topo, node, key)
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

// readKeyPatiently reads key on node, 2 s a try, asking again after a try that timed
// out, up to three: a read changes nothing, and a loaded machine stalled a node's answer
// (an embedded one, inside a raced test process) past 2 s. A node that does not answer
// three times is an error still.
func readKeyPatiently(ctx context.Context, kr KeyReader, topo topologies.Topology, node topologies.Node,
	key string) (redisadmin.KeyState, error) {
	var s redisadmin.KeyState
	var err error
	for try := 0; try < 3; try++ {
		rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		s, err = kr.ReadKey(rctx, topo, node, key)
		cancel()
		if err == nil || ctx.Err() != nil || !timeout.Is(err) {
			return s, err
		}
	}
	return s, err
}

// PlainClient is a no-retry client for one address, for fencing counters and probes.
func PlainClient(addr string) *redis.Client {
	return redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, Protocol: 2, DisableIdentity: true})
}
