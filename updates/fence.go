package updates

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
)

// FenceSource says where a lock strategy's fencing tokens come from, for the reports.
type FenceSource string

const (
	// LeaseFence: the lock issues its own (etcd's create revision, PostgreSQL's
	// sequence): no failover of the one store can hand the same value out twice.
	LeaseFence FenceSource = "lock"
	// RedisIncr: INCR on the lock's Redis master, taken after the grant. A failover to
	// a replica that had not yet received the increment hands a value out again.
	RedisIncr FenceSource = "redis-incr (reissuable)"
	// NoFence: the strategy has no counter every grant passes through (Redlock).
	NoFence FenceSource = "none"
)

// FenceOf names the fence a lock strategy can carry, by the deployment it runs on.
func FenceOf(strategy string) (FenceSource, error) {
	spec, err := locks.TopologyFor(strategy)
	if err != nil {
		return NoFence, err
	}
	switch {
	case backend.KindIs[backend.OwnFence](linked.Catalog(), spec.Kind):
		return LeaseFence, nil
	case backend.KindIs[backend.CounterFence](linked.Catalog(), spec.Kind):
		return RedisIncr, nil
	}
	return NoFence, nil
}

// fencer turns a granted lease into the token its writes carry.
type fencer interface {
	fence(ctx context.Context, lease locks.Lease) (int64, error)
	close() error
}

type leaseFencer struct{ strategy string }

func (f leaseFencer) fence(_ context.Context, lease locks.Lease) (int64, error) {
	if !lease.HasFence {
		return 0, fmt.Errorf("strategy %s granted a lease without a fence", f.strategy)
	}
	return lease.Fence, nil
}

func (leaseFencer) close() error { return nil }

// incrFencer counts grants on the lock's master, one INCR per grant.
type incrFencer struct {
	client *redis.Client
	key    string
}

func (f incrFencer) fence(ctx context.Context, _ locks.Lease) (int64, error) {
	return f.client.Incr(ctx, f.key).Result()
}

func (f incrFencer) close() error { return f.client.Close() }

// newFencer builds the fence source of strategy over topo.
func newFencer(strategy string, topo topologies.Topology, prefix string, poolSize int) (fencer, error) {
	source, err := FenceOf(strategy)
	if err != nil {
		return nil, err
	}
	switch source {
	case LeaseFence:
		return leaseFencer{strategy}, nil
	case RedisIncr:
		return incrFencer{client: redis.NewClient(&redis.Options{Addr: topo.Masters()[0].Addr(), PoolSize: poolSize}),
			key: prefix + "fence"}, nil
	}
	return nil, fmt.Errorf("strategy %s has no fence", strategy)
}
