package bench_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/bench"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/severed"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// grants are when each granted Acquire was called and when it returned.
type grants struct {
	mu              sync.Mutex
	called, granted []time.Time
}

// timedLocker notes its grants.
type timedLocker struct {
	locks.Locker
	g *grants
}

func (t timedLocker) Acquire(ctx context.Context, key string, ttl time.Duration) (locks.Lease, error) {
	called := time.Now()
	lease, err := t.Locker.Acquire(ctx, key, ttl)
	if err == nil {
		t.g.mu.Lock()
		t.g.called, t.g.granted = append(t.g.called, called), append(t.g.granted, time.Now())
		t.g.mu.Unlock()
	}
	return lease, err
}

// crashHandoffs runs trials crash hand-offs of strategy on topo, the waiter making one
// attempt at a time; it returns the hand-offs and the holders' and waiter's grants.
func crashHandoffs(t *testing.T, topo topologies.Topology, strategy string, ttl time.Duration,
	trials int) (n int64, holders, waiter *grants) {
	t.Helper()
	ctx := context.Background()
	l, err := locks.ForTopology(ctx, strategy, topo, locks.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	holders, waiter = &grants{}, &grants{}
	newHolder := func(ctx context.Context) (bench.Holder, error) {
		cut, sever, err := severed.Wrap(topo)
		if err != nil {
			return bench.Holder{}, err
		}
		hl, err := locks.ForTopology(ctx, strategy, cut, locks.Options{})
		if err != nil {
			sever()
			return bench.Holder{}, err
		}
		return bench.Holder{Locker: timedLocker{hl, holders}, Kill: sever}, nil
	}
	load := bench.Load{Clients: 1, Keys: 1, TTL: ttl, RetryDelay: time.Millisecond, Wait: bench.WaitAttempts,
		KeyPrefix: "crash-test:"}
	h, err := bench.ProbeCrashHandoffs(ctx, timedLocker{l, waiter}, load, newHolder, trials, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return h.TotalCount(), holders, waiter
}

// A Redis lease outlives its dead holder: no waiter is granted the key before the TTL
// has run from the moment the holder asked for it (the server's expiry decides, not
// the scheduler).
func TestACrashedRedisHolderBlocksItsKeyForTheTTL(t *testing.T) {
	testenv.NeedsServers(t)
	topo := testenv.Start(t, backend.Spec{Kind: topologies.Single})
	const ttl = time.Second
	n, holders, waiter := crashHandoffs(t, topo, "single", ttl, 2)
	if n != 2 || len(holders.called) != 2 || len(waiter.granted) != 2 {
		t.Fatalf("%d hand-offs, %d holders' grants, %d waiter's grants; want 2 each", n, len(holders.called),
			len(waiter.granted))
	}
	for i := range 2 {
		if blocked := waiter.granted[i].Sub(holders.called[i]); blocked < ttl {
			t.Errorf("trial %d: the waiter had the key %v after the holder asked for it, within its %v lease", i, blocked,
				ttl)
		}
	}
}

// PostgreSQL ends a dead client's session and its advisory lock with it: the waiter is
// granted although the lock has no lease at all (a lock held on would fail the probe
// after its 30 s bound, and a grant before the death is an error too).
func TestACrashedPostgresHolderFreesItsKey(t *testing.T) {
	testenv.NeedsServers(t)
	topo := testenv.Start(t, backend.Spec{Kind: topologies.Postgres})
	if n, _, waiter := crashHandoffs(t, topo, "pg-advisory", time.Minute, 2); n != 2 || len(waiter.granted) != 2 {
		t.Fatalf("%d hand-offs, %d grants; want 2", n, len(waiter.granted))
	}
}
