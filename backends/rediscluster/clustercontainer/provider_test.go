package clustercontainer_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/redis/rediscontainer/rediscontainertest"
	"github.com/lockbench/lockbench/backends/rediscluster"
	"github.com/lockbench/lockbench/backends/rediscluster/clustercontainer"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// startCluster starts a cluster through --provider container's resolution, as a run
// does; without an engine or an image it skips (fails under CI=true). When the test
// ends it is closed, and no container or network of this program may remain.
func startCluster(t *testing.T, spec backend.Spec) *clustercontainer.Cluster {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rediscontainertest.RequireEngine(t)
	p, err := topologies.ProviderFor("container", rediscluster.Kind)
	if err != nil || p.Name() != clustercontainer.ProviderName {
		t.Fatalf("--provider container for a cluster: %v, %v; want %s", p, err, clustercontainer.ProviderName)
	}
	spec.Kind = rediscluster.Kind
	began := time.Now()
	topo, err := p.Start(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("cluster of %d containers serving %v after the start", len(topo.Nodes()), time.Since(began).Round(time.Millisecond))
	t.Cleanup(func() {
		if err := topo.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
		if left := owned(t); len(left) > 0 {
			t.Errorf("after Close these remain: %v", left)
		}
	})
	return topo.(*clustercontainer.Cluster)
}

// owned lists the containers and networks labelled with this test program's pid.
func owned(t *testing.T) []string {
	var left []string
	for _, args := range [][]string{{"ps", "-aq"}, {"network", "ls", "-q"}} {
		out, err := exec.Command("docker", append(args, "--filter", "label=org.lockbench.owner="+strconv.Itoa(os.Getpid()))...).Output()
		if err != nil {
			t.Errorf("docker %v: %v", args, err)
		}
		left = append(left, strings.Fields(string(out))...)
	}
	return left
}

func plain(t *testing.T, addr string) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: addr, Protocol: 2, MaxRetries: -1, DisableIdentity: true})
	t.Cleanup(func() { c.Close() })
	return c
}

// A cluster in containers serves clients on the host: a master asked for a key it does
// not serve answers MOVED with another node's published address, and the cluster
// strategy locks there. SIGKILLed, the key's master is replaced by its replica, where
// the same locker then takes the lock; restarted empty, the old master rejoins as a
// replica; a paused node answers nothing until resumed.
func TestContainerClusterLocksThroughMovedAndFailsOver(t *testing.T) {
	c := startCluster(t, backend.Spec{Masters: 3, Replicas: 1, DownAfter: 500 * time.Millisecond})
	ctx := context.Background()
	for _, n := range c.Nodes() {
		info, err := plain(t, n.Addr()).ClusterNodes(ctx).Result()
		if err != nil || strings.Count(info, "127.0.0.1:") != len(c.Nodes()) {
			t.Fatalf("%s: CLUSTER NODES %q, %v: want every node at a 127.0.0.1 address", n.Name(), info, err)
		}
	}
	m0, m1 := c.Masters()[0], c.Masters()[1]
	key, err := rediscluster.KeyServedBy(ctx, m1.Addr(), "lock")
	if err != nil {
		t.Fatal(err)
	}
	err = plain(t, m0.Addr()).Set(ctx, key, "x", time.Second).Err()
	if err == nil || !strings.HasPrefix(err.Error(), "MOVED ") || !strings.HasSuffix(err.Error(), " "+m1.Addr()) {
		t.Fatalf("SET %s on %s: %v; want MOVED to %s", key, m0.Name(), err, m1.Addr())
	}

	l, err := locks.ForTopology(ctx, rediscluster.StrategyCluster, c, locks.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	lease, err := l.Acquire(ctx, key, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := plain(t, m1.Addr()).Get(ctx, key).Result(); err != nil || v != lease.Token {
		t.Fatalf("on %s, %s = %q, %v; want the lock's token", m1.Name(), key, v, err)
	}

	replica := c.ReplicasOf(1)[0]
	if err := m1.Kill(); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	waitRole(t, replica, "master", 90*time.Second) // an election on a loaded machine: seconds, at times tens
	t.Logf("%s promoted %v after %s was SIGKILLed (cluster-node-timeout 500ms)", replica.Name(), time.Since(killed).Round(time.Millisecond), m1.Name())
	if err := c.WaitServing(ctx, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	again := lockWithin(t, l, key+":after", 30*time.Second)
	slotMaster, err := rediscluster.KeyMaster(ctx, replica.Addr(), key+":after")
	if err != nil || slotMaster != replica.Addr() {
		t.Fatalf("the key's slot is served by %s (%v), want the promoted %s", slotMaster, err, replica.Name())
	}
	if v, err := plain(t, replica.Addr()).Get(ctx, key+":after").Result(); err != nil || v != again.Token {
		t.Fatalf("on the promoted %s: %q, %v; want the new lock's token", replica.Name(), v, err)
	}

	if err := m1.Restart(ctx, topologies.RestartEmpty); err != nil {
		t.Fatal(err)
	}
	waitRole(t, m1, "slave", 30*time.Second)
	// The emptied node resyncs in full from the promoted one: a loaded machine took over
	// 30 s to bring that link up once, so the bound is a generous one.
	if err := c.WaitServing(ctx, 90*time.Second); err != nil {
		t.Fatal(err)
	}

	r0 := c.ReplicasOf(0)[0]
	if err := r0.Pause(); err != nil {
		t.Fatal(err)
	}
	pctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	err = plain(t, r0.Addr()).Ping(pctx).Err()
	cancel()
	if err == nil {
		t.Fatal("a paused node answered PING")
	}
	if err := r0.Resume(); err != nil {
		t.Fatal(err)
	}
	if err := plain(t, r0.Addr()).Ping(ctx).Err(); err != nil {
		t.Fatalf("resumed: %v", err)
	}
}

// lockWithin retries key until the locker grants it: the first tries after a failover
// may meet the dead master or a slot map not yet reloaded.
func lockWithin(t *testing.T, l locks.Locker, key string, limit time.Duration) locks.Lease {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		lease, err := l.Acquire(context.Background(), key, time.Minute)
		if err == nil {
			return lease
		}
		if errors.Is(err, locks.ErrNotAcquired) || time.Now().After(deadline) {
			t.Fatalf("lock %s after the failover: %v", key, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitRole waits until n reports role ("master" or "slave").
func waitRole(t *testing.T, n topologies.Node, role string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	var last string
	for time.Now().Before(deadline) {
		r, err := redisadmin.CurrentRole(context.Background(), n.Addr())
		if err == nil && r == role {
			return
		}
		last = fmt.Sprintf("role %q, %v", r, err)
		time.Sleep(10 * time.Millisecond)
	}
	// What the node saw of the cluster tells a stalled election from a node unreachable.
	view, err := plain(t, n.Addr()).ClusterNodes(context.Background()).Result()
	t.Fatalf("%s not %s after %v (last: %s); its CLUSTER NODES (%v):\n%s", n.Name(), role, limit, last, err, view)
}
