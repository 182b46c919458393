package redlock

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/lab"
)

// maxFenceRedlock is the obvious fence for Redlock, which has no global counter: after
// each grant, INCR fence:<key> on every node of the granting majority (the nodes that
// hold the key, read right after the grant) and take the largest value. Any two
// majorities share a node, but that node's counter may lag the largest one, or be lost
// in an empty restart: the fence can then go backwards.
type maxFenceRedlock struct {
	locks.Locker
	nodes []*redis.Client
}

// nodeAnswerTimeout bounds one node's GET or INCR: a stopped node answers nothing.
const nodeAnswerTimeout = 100 * time.Millisecond

func newMaxFenceRedlock(inner locks.Locker, addrs []string) *maxFenceRedlock {
	m := &maxFenceRedlock{Locker: inner}
	for _, a := range addrs {
		m.nodes = append(m.nodes, nodeClient(a))
	}
	return m
}

func (m *maxFenceRedlock) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	lease, err := m.Locker.Acquire(ctx, key, ttl)
	if err != nil {
		return lease, err
	}
	fence, granting := int64(0), 0
	var missed []error
	for i, c := range m.nodes {
		nctx, cancel := context.WithTimeout(ctx, nodeAnswerTimeout)
		owner, err := c.Get(nctx, key).Result()
		if err == nil && owner == lease.Token {
			if n, err := c.Incr(nctx, lab.FenceKey(key)).Result(); err == nil {
				granting++
				fence = max(fence, n)
			}
		} else {
			missed = append(missed, fmt.Errorf("node %d: %q, %v", i, owner, err))
		}
		cancel()
	}
	if granting <= len(m.nodes)/2 {
		_ = m.Locker.Release(ctx, lease)
		return locks.Lease{},
			fmt.Errorf("per-node fence: counted on %d of %d nodes, not a majority (%v)", granting, len(m.nodes),
				errors.Join(missed...))
	}
	lease.Fence, lease.HasFence = fence, true
	return lease, nil
}

func (m *maxFenceRedlock) Close() error {
	errs := []error{m.Locker.Close()}
	for _, c := range m.nodes {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

// fenceCounters reads fence:<key> on every node (-1 where a node did not answer).
func fenceCounters(ctx context.Context, addrs []string, key string) []int64 {
	out := make([]int64, len(addrs))
	for i, a := range addrs {
		c := nodeClient(a)
		nctx, cancel := context.WithTimeout(ctx, nodeAnswerTimeout)
		n, err := c.Get(nctx, lab.FenceKey(key)).Int64()
		switch {
		case errors.Is(err, redis.Nil):
			n = 0
		case err != nil:
			n = -1
		}
		out[i] = n
		cancel()
		c.Close()
	}
	return out
}

// nodeClient reads one Redlock node with deadlines a stopped node cannot stretch.
func nodeClient(addr string) *redis.Client {
	return redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, Protocol: 2, DisableIdentity: true,
		DialTimeout: nodeAnswerTimeout, ReadTimeout: nodeAnswerTimeout, WriteTimeout: nodeAnswerTimeout,
		ContextTimeoutEnabled: true})
}
