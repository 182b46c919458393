package rediscluster_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/rediscluster"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/lockstest"
	"github.com/lockbench/lockbench/locks/rueidislayout"
	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// sharedCluster is the package's one cluster for tests that neither kill, pause nor
// move slots, each on keys of its own (testenv.Key).
func sharedCluster(t *testing.T) *rediscluster.Cluster {
	t.Helper()
	testenv.RequireRedis(t)
	return testenv.Shared(t, backend.Spec{Kind: rediscluster.Kind}).(*rediscluster.Cluster)
}

// build gives WAIT 2 s, not its 100 ms default (at load 24 a replica's acknowledgement
// missed 100 ms, and the grant was refused), and each reply 5 s, so that WAIT's own
// timeout answers first.
func build(t *testing.T, name string, c *rediscluster.Cluster) locks.Locker {
	t.Helper()
	l, err := locks.ForTopology(context.Background(), name, c, locks.Options{
		Options: redisconn.Options{Timeout: 5 * time.Second}, Wait: locks.WaitOptions{Timeout: 2 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func TestClusterStrategiesConform(t *testing.T) {
	for _, name := range []string{rediscluster.StrategyCluster, rediscluster.StrategyWait} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c := sharedCluster(t)
			if spec, err := locks.TopologyFor(name); err != nil || spec.Kind != rediscluster.Kind {
				t.Fatalf("TopologyFor(%s) = %+v, %v", name, spec, err)
			}
			lockstest.Conformance(t, build(t, name, c), 8, 50)
		})
	}
}

// A lock on a key of each master lands on that master, whatever seed the client had.
func TestALockLandsOnTheMasterOfItsKeysSlot(t *testing.T) {
	t.Parallel()
	c := sharedCluster(t)
	ctx := context.Background()
	l, err := rediscluster.NewCluster(ctx, []string{c.Masters()[0].Addr()}, redisconn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, m := range c.Masters() {
		key, err := rediscluster.KeyServedBy(ctx, m.Addr(), testenv.Key(t, "lock"))
		if err != nil {
			t.Fatal(err)
		}
		lease, err := l.Acquire(ctx, key, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if v, err := client(t, m.Addr()).Get(ctx, key).Result(); err != nil || v != lease.Token {
			t.Errorf("%s holds %q (%v), want the lease's token", m.Name(), v, err)
		}
	}
}

// clusterNodeID is the node's own id.
func clusterNodeID(t *testing.T, n topologies.Node) string { return myselfLine(t, n)[0] }

// A slot moved after the client learnt the map answers MOVED; one being migrated
// answers ASK for a key not on the source: the locker follows both.
func TestTheLockerFollowsMovedAndAsk(t *testing.T) {
	c := startCluster(t, backend.Spec{})
	ctx := context.Background()
	l, err := rediscluster.NewCluster(ctx, topologies.Addrs(c.Masters()), redisconn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	src, dst := c.Masters()[0], c.Masters()[1]
	moved, err := rediscluster.KeyServedBy(ctx, src.Addr(), "moved")
	if err != nil {
		t.Fatal(err)
	}
	// The client learns the map at its first command.
	if _, err := l.Acquire(ctx, "warm-the-map", time.Second); err != nil {
		t.Fatal(err)
	}
	slotOf := func(key string) int64 {
		s, err := client(t, src.Addr()).ClusterKeySlot(ctx, key).Result()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	dstID, srcID := clusterNodeID(t, dst), clusterNodeID(t, src)
	// MOVED: the (empty) slot given to dst on every master.
	for _, m := range c.Masters() {
		if err := client(t, m.Addr()).Do(ctx, "CLUSTER", "SETSLOT", slotOf(moved), "NODE", dstID).Err(); err != nil {
			t.Fatal(err)
		}
	}
	if err := client(t, src.Addr()).Set(ctx, moved, "x", 0).Err(); err == nil || !redirect(err, "MOVED") {
		t.Fatalf("src answered %v for a moved slot, want MOVED", err)
	}
	lease, err := l.Acquire(ctx, moved, 10*time.Second)
	if err != nil {
		t.Fatalf("acquire on a moved slot: %v", err)
	}
	if v, _ := client(t, dst.Addr()).Get(ctx, moved).Result(); v != lease.Token {
		t.Errorf("moved key on dst = %q, want the token", v)
	}
	if err := l.Release(ctx, lease); err != nil {
		t.Errorf("release on a moved slot: %v", err)
	}
	// ASK: src migrating a slot it still serves to dst, which imports it; the key is
	// not on src. (Asked after the move: keys' {tags} pick the same slot numbers.)
	asked, err := rediscluster.KeyServedBy(ctx, src.Addr(), "asked")
	if err != nil {
		t.Fatal(err)
	}
	slot := slotOf(asked)
	if err := client(t, dst.Addr()).Do(ctx, "CLUSTER", "SETSLOT", slot, "IMPORTING", srcID).Err(); err != nil {
		t.Fatal(err)
	}
	if err := client(t, src.Addr()).Do(ctx, "CLUSTER", "SETSLOT", slot, "MIGRATING", dstID).Err(); err != nil {
		t.Fatal(err)
	}
	if err := client(t, src.Addr()).Set(ctx, asked, "x", 0).Err(); err == nil || !redirect(err, "ASK") {
		t.Fatalf("src answered %v for a migrating slot, want ASK", err)
	}
	lease, err = l.Acquire(ctx, asked, 10*time.Second)
	if err != nil {
		t.Fatalf("acquire on a migrating slot: %v", err)
	}
	// An importing node answers only after ASKING: count the key there instead.
	if n, _ := client(t, dst.Addr()).Do(ctx, "CLUSTER", "COUNTKEYSINSLOT", slot).Int(); n != 1 {
		t.Errorf("dst holds %d keys in the migrating slot, want the lock's 1", n)
	}
}

func redirect(err error, kind string) bool { return strings.HasPrefix(err.Error(), kind+" ") }

// With the key's master's replica paused, cluster-wait refuses the grant and gives the
// key back; cluster, which does not wait, grants it.
func TestClusterWaitRefusesAGrantNoReplicaAcknowledged(t *testing.T) {
	c := startCluster(t, backend.Spec{})
	ctx := context.Background()
	m := c.Masters()[2]
	key, err := rediscluster.KeyServedBy(ctx, m.Addr(), "waited")
	if err != nil {
		t.Fatal(err)
	}
	w := build(t, rediscluster.StrategyWait, c)
	plain := build(t, rediscluster.StrategyCluster, c)
	lease, err := w.Acquire(ctx, key, 10*time.Second)
	if err != nil {
		t.Fatalf("acknowledged grant: %v", err)
	}
	if err := w.Release(ctx, lease); err != nil {
		t.Fatal(err)
	}
	r := c.ReplicasOf(2)[0]
	if err := r.Pause(); err != nil {
		t.Fatal(err)
	}
	defer r.Resume()
	if _, err := w.Acquire(ctx, key, 10*time.Second); !errors.Is(err, locks.ErrNotReplicated) {
		t.Fatalf("cluster-wait with its replica paused: %v, want ErrNotReplicated", err)
	}
	if n, err := client(t, m.Addr()).Exists(ctx, key).Result(); err != nil || n != 0 {
		t.Errorf("refused grant left its key: exists %d, %v", n, err)
	}
	if _, err := plain.Acquire(ctx, key, 10*time.Second); err != nil {
		t.Errorf("cluster (no WAIT) with the replica paused: %v", err)
	}
}

// The lockers' connections carry their strategy's allow-list.
func TestAClusterLockerCannotFlush(t *testing.T) {
	t.Parallel()
	c := sharedCluster(t)
	l := build(t, rediscluster.StrategyCluster, c)
	cl := l.(interface{ Client() redis.UniversalClient }).Client()
	var refused *redisconn.RefusedError
	if err := cl.FlushAll(context.Background()).Err(); !errors.As(err, &refused) {
		t.Fatalf("FLUSHALL through a cluster locker: %v, want refused", err)
	}
}

// The fence key hashes to the lock key's slot (the server says so), and a key whose
// slot no fence name can share is refused.
func TestTheFenceSharesTheLockKeysSlot(t *testing.T) {
	t.Parallel()
	c := sharedCluster(t)
	ctx := context.Background()
	cl := client(t, c.Masters()[0].Addr())
	for _, key := range []string{"plain", "lock:orders:42", "a{b}c", "{tag}rest", "a{b"} {
		fk, err := rediscluster.FenceKey(key)
		if err != nil {
			t.Errorf("%q: %v", key, err)
			continue
		}
		ks, _ := cl.ClusterKeySlot(ctx, key).Result()
		fs, _ := cl.ClusterKeySlot(ctx, fk).Result()
		if ks != fs {
			t.Errorf("%q in slot %d, its fence %q in slot %d", key, ks, fk, fs)
		}
	}
	for _, key := range []string{"x}y", "a{}c", "a{}c{d}"} {
		if fk, err := rediscluster.FenceKey(key); err == nil {
			t.Errorf("%q: fence %q accepted, though no name shares its slot", key, fk)
		}
	}
}

// cluster-fenced passes the conformance suite with fences, and the fences it hands out
// on one key grow, whichever master serves it.
func TestClusterFencedNumbersItsGrants(t *testing.T) {
	t.Parallel()
	c := sharedCluster(t)
	l := build(t, rediscluster.StrategyFenced, c)
	lockstest.Conformance(t, l, 8, 25)
	numbersGrantsOnEveryMaster(t, c, l)
}

// cluster-wait's fenced form (the safety scenarios' cluster-wait + fence) is a lock
// that numbers its grants as cluster-fenced does.
func TestClusterWaitFencedNumbersItsGrants(t *testing.T) {
	t.Parallel()
	c := sharedCluster(t)
	l, err := rediscluster.NewClusterWaitFenced(context.Background(), topologies.Addrs(c.Masters()), locks.WaitOptions{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	lockstest.Conformance(t, l, 8, 25)
	numbersGrantsOnEveryMaster(t, c, l)
}

// numbersGrantsOnEveryMaster takes a key of each master five times: the fences grow,
// and the master's counter holds the last.
func numbersGrantsOnEveryMaster(t *testing.T, c *rediscluster.Cluster, l locks.Locker) {
	t.Helper()
	ctx := context.Background()
	for _, m := range c.Masters() {
		key, err := rediscluster.KeyServedBy(ctx, m.Addr(), testenv.Key(t, "fenced"))
		if err != nil {
			t.Fatal(err)
		}
		var fences []int64
		for i := 0; i < 5; i++ {
			lease, err := l.Acquire(ctx, key, 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if !lease.HasFence {
				t.Fatalf("lease without a fence: %+v", lease)
			}
			fences = append(fences, lease.Fence)
			if err := l.Release(ctx, lease); err != nil {
				t.Fatal(err)
			}
		}
		if i := lockstest.FirstNonIncreasing(fences); i >= 0 {
			t.Errorf("%s: fences %v do not grow at %d", m.Name(), fences, i)
		}
		fk, _ := rediscluster.FenceKey(key)
		if n, err := client(t, m.Addr()).Get(ctx, fk).Int64(); err != nil || n != fences[len(fences)-1] {
			t.Errorf("%s holds fence %d (%v), want the last handed out, %d", m.Name(), n, err, fences[len(fences)-1])
		}
	}
}

// After the key's master dies, every cluster strategy reaches the promoted replica, to
// release a lease of before the kill and to lock:
// cluster and cluster-fenced lock there, cluster-wait is refused there for want of a
// replica (its old master is dead). Each failed attempt reloads the slot map; go-redis
// alone would keep dialing the dead master until its 60 s reload interval.
func TestEveryStrategyFindsThePromotedReplica(t *testing.T) {
	c := startCluster(t, backend.Spec{DownAfter: 500 * time.Millisecond})
	ctx := context.Background()
	m, r := c.Masters()[0], c.ReplicasOf(0)[0]
	key, err := rediscluster.KeyServedBy(ctx, m.Addr(), testenv.Key(t, "lock"))
	if err != nil {
		t.Fatal(err)
	}
	lockers := map[string]locks.Locker{}
	before := map[string]locks.Lease{}
	for _, name := range []string{rediscluster.StrategyCluster, rediscluster.StrategyFenced, rediscluster.StrategyWait} {
		lockers[name] = build(t, name, c)
		if before[name], err = lockers[name].Acquire(ctx, key+":"+name, time.Minute); err != nil {
			t.Fatalf("%s before the kill: %v", name, err)
		}
	}
	if err := m.Kill(); err != nil {
		t.Fatal(err)
	}
	waitRole(t, r, "master", 30*time.Second)
	// A holder that only releases finds the promoted replica too: its lease is released
	// there, or found gone (the replica may have missed it).
	for name, l := range lockers {
		deadline := time.Now().Add(30 * time.Second)
		for tries := 1; ; tries++ {
			err := l.Release(ctx, before[name])
			if err == nil || errors.Is(err, locks.ErrNotHeld) {
				t.Logf("%s: the lease of before the kill answered on the promoted replica at try %d: %v", name, tries, err)
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: releasing the lease of before the kill still %v after %d tries", name, err, tries)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	for name, l := range lockers {
		deadline := time.Now().Add(30 * time.Second)
		var err error
		for tries := 1; ; tries++ {
			var lease locks.Lease
			if lease, err = l.Acquire(ctx, key+":after:"+name, time.Minute); err == nil {
				if v, gerr := client(t, r.Addr()).Get(ctx, lease.Key).Result(); gerr != nil || v != lease.Token {
					t.Errorf("%s: granted, but the promoted %s holds %q (%v)", name, r.Name(), v, gerr)
				}
				t.Logf("%s: granted on the promoted replica at try %d", name, tries)
				break
			}
			if errors.Is(err, locks.ErrNotReplicated) && name == rediscluster.StrategyWait {
				t.Logf("%s: refused by the promoted replica (no replica of its own) at try %d", name, tries)
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: still %v after %d tries", name, err, tries)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// rueidislock on a cluster passes the same conformance as the house's lockers, and each
// grant sits on at least a majority of its three keys, each on its slot's master.
func TestRueidislockOnAClusterConforms(t *testing.T) {
	t.Parallel()
	c := sharedCluster(t)
	// One SET may outlast the library's 20 ms bound on a loaded machine.
	l, err := locks.ForTopology(context.Background(), rediscluster.StrategyRueidis, c, lockstest.PatientOptions())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	lockstest.Conformance(t, l, 8, 50)

	ctx, name := context.Background(), testenv.Key(t, "spread")
	lease, err := l.Acquire(ctx, name, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release(ctx, lease)
	held := 0
	for i := range 3 {
		key := rueidislayout.KeyOf(name, i)
		master, err := rediscluster.KeyMaster(ctx, c.Masters()[0].Addr(), key)
		if err != nil {
			t.Fatal(err)
		}
		server := redis.NewClient(&redis.Options{Addr: master})
		if n, err := server.Exists(ctx, key).Result(); err == nil && n == 1 {
			held++
		}
		server.Close()
	}
	if held < rueidislayout.ClusterMajority {
		t.Errorf("a grant on %d of its 3 keys, want at least %d", held, rueidislayout.ClusterMajority)
	}
}
