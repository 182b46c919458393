package etcdlock_test

import (
	"context"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/lockbench/lockbench/backends/etcd/etcdtopo"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/lockstest"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// TestEtcdWaiters: the recipe's queue on a three-member cluster, FIFO by create revision.
func TestEtcdWaiters(t *testing.T) {
	const name = "etcd-3"
	_, topo := lockstest.SharedStrategy(t, name, locks.Options{})
	lockstest.WaiterConformance(t, lockstest.WaiterSetup{
		New:    newWaiter(name, topo),
		Queued: queued(t, topo),
		FIFO:   true,
	})
}

func newWaiter(name string, topo topologies.Topology) func(t *testing.T) locks.Waiter {
	return func(t *testing.T) locks.Waiter {
		return lockstest.NewLocker(t, name, topo, locks.Options{}).(locks.Waiter)
	}
}

// queued counts the waiters behind a key's holder: every contender, holder first, is
// a key under the lock's prefix.
func queued(t *testing.T, topo topologies.Topology) func(ctx context.Context, key string) (int, error) {
	endpoints := topo.(*etcdtopo.Cluster).Endpoints()
	cli, err := clientv3.New(clientv3.Config{Endpoints: endpoints, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close() })
	return func(ctx context.Context, key string) (int, error) {
		resp, err := cli.Get(ctx, key+"/", clientv3.WithPrefix(), clientv3.WithCountOnly())
		if err != nil {
			return 0, err
		}
		return max(int(resp.Count)-1, 0), nil
	}
}

// TestWaitLongerThanTTLKeepsItsPlace: the session renews a waiter's lease while it
// queues, and the granted lease runs the whole granted TTL (whole seconds) from its grant.
func TestWaitLongerThanTTLKeepsItsPlace(t *testing.T) {
	const name = "etcd"
	holder, topo := lockstest.SharedStrategy(t, name, locks.Options{})
	waiter, count := newWaiter(name, topo)(t), queued(t, topo)
	ctx := context.Background()
	key := testenv.Key(t, "long")
	held, err := holder.Acquire(ctx, key, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	granted := lockstest.Queue(t, waiter, key, 1500*time.Millisecond, count)
	time.Sleep(4 * time.Second) // the scenario: twice the waiter's 2 s lease
	if n, err := count(ctx, key); err != nil || n != 1 {
		t.Fatalf("after 4 s, %d waiters queued (%v): the waiter's lease lapsed in the queue", n, err)
	}
	grantedAfter := time.Now()
	if err := holder.Release(ctx, held); err != nil {
		t.Fatal(err)
	}
	lease := <-granted
	defer waiter.Release(ctx, lease)
	if lease.ValidUntil.Before(grantedAfter.Add(2 * time.Second)) {
		t.Errorf("lease valid until %v, not 2 s (1.5 s rounded up) after the release at %v", lease.ValidUntil, grantedAfter)
	}
	if lease.Fence <= held.Fence {
		t.Errorf("waiter's fence %d not above the holder's %d", lease.Fence, held.Fence)
	}
}

// TestFreeKeyWaitCostsWhatAcquireDoes: granted without waiting, the lease runs the
// granted TTL from the start, as Acquire's, without a renewal.
func TestFreeKeyWaitCostsWhatAcquireDoes(t *testing.T) {
	l, _ := lockstest.SharedStrategy(t, "etcd", locks.Options{})
	ctx := context.Background()
	lease, err := l.(locks.Waiter).AcquireWaiting(ctx, testenv.Key(t, "rounded"), 2500*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release(ctx, lease)
	if got := lease.ValidUntil.Sub(lease.Start); got != 3*time.Second {
		t.Errorf("ttl 2.5s granted %v, want 3s", got)
	}
}
