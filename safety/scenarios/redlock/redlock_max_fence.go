package redlock

import (
	"context"
	"errors"
	"fmt"
	"sync"
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

// countedAnswer bounds one node's GET and INCR after a grant: long enough for a running
// node on a loaded machine, and paid once per grant for the stopped ones (they are
// asked side by side), a fifth of the lease at most.
func countedAnswer(ttl time.Duration) time.Duration { return max(ttl/5, 100*time.Millisecond) }

func newMaxFenceRedlock(inner locks.Locker, addrs []string, answer time.Duration) *maxFenceRedlock {
	m := &maxFenceRedlock{Locker: inner}
	for _, a := range addrs {
		m.nodes = append(m.nodes, nodeClient(a, answer))
	}
	return m
}

// nodeCount is one node's part in a fence: its counter, or why it did not count.
type nodeCount struct {
	fence int64
	err   error
}

func (m *maxFenceRedlock) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	lease, err := m.Locker.Acquire(ctx, key, ttl)
	if err != nil {
		return lease, err
	}
	counts := make([]nodeCount, len(m.nodes))
	var wg sync.WaitGroup
	for i, c := range m.nodes {
		wg.Go(func() { counts[i] = countOn(ctx, c, key, lease.Token) })
	}
	wg.Wait()
	fence, granting := int64(0), 0
	var missed []error
	for i, n := range counts {
		if n.err != nil {
			missed = append(missed, fmt.Errorf("node %d: %w", i, n.err))
			continue
		}
		granting++
		fence = max(fence, n.fence)
	}
	if granting <= len(m.nodes)/2 {
		_ = m.Locker.Release(ctx, lease)
		return locks.Lease{},
			fmt.Errorf("per-node fence: counted on %d of %d nodes, not a majority (%w)", granting, len(m.nodes),
				errors.Join(missed...))
	}
	lease.Fence, lease.HasFence = fence, true
	return lease, nil
}

// countOn increments the node's counter if the node holds the key under token.
func countOn(ctx context.Context, c *redis.Client, key, token string) nodeCount {
	owner, err := c.Get(ctx, key).Result()
	if err != nil || owner != token {
		return nodeCount{err: fmt.Errorf("holds %q, %v", owner, err)}
	}
	n, err := c.Incr(ctx, lab.FenceKey(key)).Result()
	return nodeCount{fence: n, err: err}
}

func (m *maxFenceRedlock) Close() error {
	errs := []error{m.Locker.Close()}
	for _, c := range m.nodes {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

// counterAnswer bounds a counter's read: every node is running then, however loaded.
const counterAnswer = 2 * time.Second

// fenceCounters reads fence:<key> on every node (-1 where a node did not answer).
func fenceCounters(ctx context.Context, addrs []string, key string) []int64 {
	out := make([]int64, len(addrs))
	for i, a := range addrs {
		c := nodeClient(a, counterAnswer)
		n, err := c.Get(ctx, lab.FenceKey(key)).Int64()
		switch {
		case errors.Is(err, redis.Nil):
			n = 0
		case err != nil:
			n = -1
		}
		out[i] = n
		c.Close()
	}
	return out
}

// nodeClient reads one Redlock node with deadlines a stopped node cannot stretch.
func nodeClient(addr string, answer time.Duration) *redis.Client {
	return redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, Protocol: 2, DisableIdentity: true,
		DialTimeout: answer, ReadTimeout: answer, WriteTimeout: answer, ContextTimeoutEnabled: true})
}
