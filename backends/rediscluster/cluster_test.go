package rediscluster_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/backends/rediscluster"
	"github.com/lockbench/lockbench/preflight"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/portlease"
	"github.com/lockbench/lockbench/topologies/redisadmin"
	"github.com/lockbench/lockbench/topologies/testenv"
)

func startCluster(t *testing.T, spec backend.Spec) *rediscluster.Cluster {
	t.Helper()
	testenv.RequireRedis(t)
	spec.Kind = rediscluster.Kind
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	topo, err := rediscluster.Process{}.Start(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { topo.Close() })
	return topo.(*rediscluster.Cluster)
}

func client(t *testing.T, addr string) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: addr, Protocol: 2, MaxRetries: -1})
	t.Cleanup(func() { c.Close() })
	return c
}

// myselfLine is the CLUSTER NODES line a node says about itself.
func myselfLine(t *testing.T, n topologies.Node) []string {
	t.Helper()
	out, err := client(t, n.Addr()).ClusterNodes(context.Background()).Result()
	if err != nil {
		t.Fatalf("%s: %v", n.Name(), err)
	}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) >= 8 && strings.Contains(f[2], "myself") {
			return f
		}
	}
	t.Fatalf("%s: no myself line in %q", n.Name(), out)
	return nil
}

func TestProcessFamilyStartsClusters(t *testing.T) {
	p, err := topologies.ProviderServing("process", rediscluster.Kind)
	if err != nil || p.Name() != rediscluster.ProviderName {
		t.Fatalf("--provider process for %s: %v, %v; want %s", rediscluster.Kind, p, err, rediscluster.ProviderName)
	}
	d, err := topologies.DefaultProvider(rediscluster.Kind)
	if err != nil || d.Name() != rediscluster.ProviderName {
		t.Fatalf("default provider: %v, %v", d, err)
	}
}

func TestSpecDefaultsAndRefusals(t *testing.T) {
	s := backend.Spec{Kind: rediscluster.Kind}.WithDefaults(linked.Catalog())
	if s.Masters != 3 || s.Replicas != 1 || s.DownAfter != time.Second {
		t.Fatalf("defaults: %+v", s)
	}
	if err := s.Validate(linked.Catalog()); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []backend.Spec{
		{Kind: rediscluster.Kind, Masters: 2},
		{Kind: rediscluster.Kind, Replicas: -1},
		{Kind: rediscluster.Kind, Sentinels: 3},
		{Kind: rediscluster.Kind, Members: 3},
		{Kind: rediscluster.Kind, DownAfter: 10 * time.Millisecond},
	} {
		if err := bad.WithDefaults(linked.Catalog()).Validate(linked.Catalog()); err == nil {
			t.Errorf("%+v: accepted", bad)
		}
	}
}

func TestEverySlotIsServedAndEachReplicaFollowsItsMaster(t *testing.T) {
	c := startCluster(t, backend.Spec{Masters: 3, Replicas: 1})
	if len(c.Masters()) != 3 || len(c.Replicas()) != 3 || len(c.Nodes()) != 6 {
		t.Fatalf("%d masters, %d replicas, %d nodes", len(c.Masters()), len(c.Replicas()), len(c.Nodes()))
	}
	for i, m := range c.Masters() {
		lo, hi := rediscluster.SlotRange(i, 3)
		f := myselfLine(t, m)
		if want := fmt.Sprintf("%d-%d", lo, hi); len(f) != 9 || f[8] != want {
			t.Errorf("%s serves %v, want %s", m.Name(), f[8:], want)
		}
		id := f[0]
		reps := c.ReplicasOf(i)
		if len(reps) != 1 {
			t.Fatalf("master-%d: %d replicas", i, len(reps))
		}
		if rf := myselfLine(t, reps[0]); rf[3] != id {
			t.Errorf("%s follows %s, want %s (%s)", reps[0].Name(), rf[3], id, m.Name())
		}
	}
	// A key's write lands on the master serving its slot, and its replica has it.
	cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: topologies.Addrs(c.Masters()), Protocol: 2})
	defer cc.Close()
	ctx := context.Background()
	for i := 0; i < 30; i++ {
		if err := cc.Set(ctx, fmt.Sprintf("k%d", i), i, 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	keys := 0
	for _, m := range c.Masters() {
		n, err := client(t, m.Addr()).DBSize(ctx).Result()
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Errorf("%s holds none of 30 keys", m.Name())
		}
		keys += int(n)
	}
	if keys != 30 {
		t.Errorf("masters hold %d keys, want 30", keys)
	}
}

func TestCloseStopsEveryNodeAndEndsEveryLease(t *testing.T) {
	c := startCluster(t, backend.Spec{Masters: 3, Replicas: 1})
	var ports []int
	var pids []int
	for _, n := range c.Nodes() {
		var port int
		fmt.Sscanf(n.Addr(), "127.0.0.1:%d", &port)
		ports = append(ports, port)
		pids = append(pids, n.(interface{ Pid() int }).Pid())
	}
	ports = append(ports, busPorts(t, c)...)
	for _, p := range ports {
		if !portlease.Held(p) {
			t.Fatalf("port %d not leased while the cluster runs", p)
		}
	}
	if err := c.Nodes()[4].Pause(); err != nil { // a paused node must die too
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range pids {
		if !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
			t.Errorf("pid %d still alive after Close", pid)
		}
	}
	for _, p := range ports {
		if portlease.Held(p) {
			t.Errorf("port %d still leased after Close", p)
		}
	}
	if _, err := os.Stat(c.Dir()); !os.IsNotExist(err) {
		t.Errorf("dir %s left behind: %v", c.Dir(), err)
	}
}

// busPorts reads each node's bus port from CLUSTER NODES (ip:port@busport).
func busPorts(t *testing.T, c *rediscluster.Cluster) []int {
	var out []int
	for _, n := range c.Nodes() {
		f := myselfLine(t, n)
		_, bus, _ := strings.Cut(f[1], "@")
		var p int
		fmt.Sscanf(bus, "%d", &p)
		out = append(out, p)
	}
	return out
}

// waitRole waits until n reports role ("master" or "slave").
func waitRole(t *testing.T, n topologies.Node, role string, limit time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	for time.Since(start) < limit {
		if r, err := redisadmin.CurrentRole(context.Background(), n.Addr()); err == nil && r == role {
			return time.Since(start)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s not %s after %v", n.Name(), role, limit)
	return 0
}

func TestAKilledMasterIsReplacedAndRejoinsAsAReplica(t *testing.T) {
	c := startCluster(t, backend.Spec{Masters: 3, Replicas: 1, DownAfter: 500 * time.Millisecond})
	m, r := c.Masters()[0], c.ReplicasOf(0)[0]
	if err := m.Kill(); err != nil {
		t.Fatal(err)
	}
	took := waitRole(t, r, "master", 90*time.Second) // an election on a loaded machine: seconds, at times tens
	t.Logf("%s promoted %v after the kill (cluster-node-timeout 500ms)", r.Name(), took)
	ctx := context.Background()
	if err := c.WaitServing(ctx, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := m.Restart(ctx, topologies.RestartEmpty); err != nil {
		t.Fatal(err)
	}
	waitRole(t, m, "slave", 30*time.Second)
	if err := c.WaitServing(ctx, 30*time.Second); err != nil {
		t.Fatal(err)
	}
}

func TestPauseSilencesANodeAndResumeBringsItBack(t *testing.T) {
	c := startCluster(t, backend.Spec{Masters: 3, Replicas: 1})
	n := c.Replicas()[1]
	if err := n.Pause(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	err := client(t, n.Addr()).Ping(ctx).Err()
	cancel()
	if err == nil {
		t.Fatal("a paused node answered PING")
	}
	if err := n.Resume(); err != nil {
		t.Fatal(err)
	}
	if err := client(t, n.Addr()).Ping(context.Background()).Err(); err != nil {
		t.Fatalf("resumed: %v", err)
	}
}

func TestRestartFromDiskKeepsKeysAndEmptyForgetsThem(t *testing.T) {
	c := startCluster(t, backend.Spec{Masters: 3, Replicas: 1, AppendFsync: "always", DownAfter: 5 * time.Second})
	ctx := context.Background()
	m := c.Masters()[1]
	key, err := rediscluster.KeyServedBy(ctx, m.Addr(), "kept")
	if err != nil {
		t.Fatal(err)
	}
	if err := client(t, m.Addr()).Set(ctx, key, "v", 0).Err(); err != nil {
		t.Fatal(err)
	}
	// Restarted well within the node timeout, so its replica is never promoted.
	if err := m.Restart(ctx, topologies.RestartFromDisk); err != nil {
		t.Fatal(err)
	}
	if err := c.WaitServing(ctx, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	if v, err := client(t, m.Addr()).Get(ctx, key).Result(); err != nil || v != "v" {
		t.Fatalf("from disk: %q, %v", v, err)
	}
	// A replica restarted empty forgets its keys, then resyncs them from its master.
	r := c.ReplicasOf(1)[0]
	if err := r.Restart(ctx, topologies.RestartEmpty); err != nil {
		t.Fatal(err)
	}
	if err := c.WaitServing(ctx, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	rc := client(t, r.Addr())
	rc.Do(ctx, "READONLY")
	if v, err := rc.Get(ctx, key).Result(); err != nil || v != "v" {
		t.Fatalf("replica after resync: %q, %v", v, err)
	}
	if err := m.Restart(ctx, topologies.RestartEmpty); err != nil {
		t.Fatal(err)
	}
	if n, err := client(t, m.Addr()).DBSize(ctx).Result(); err != nil || n != 0 {
		t.Fatalf("restarted empty: %d keys, %v", n, err)
	}
}

// A run of the cluster strategies checks for redis-server first, as the other Redis
// kinds do: without it, the preflight names it.
func TestPreflightNamesRedisServerForAClusterRun(t *testing.T) {
	need := []preflight.Need{{Strategy: rediscluster.StrategyCluster, Kind: rediscluster.Kind}}
	server := testenv.RequireRedis(t) // before the override below, which it would read
	t.Setenv("REDIS_SERVER", "/nonexistent/redis-server")
	missing := preflight.Check("process", need)
	if len(missing) != 1 || missing[0].Piece.Name != "redis-server" {
		t.Fatalf("without redis-server: %+v, want redis-server missing", missing)
	}
	t.Setenv("REDIS_SERVER", server)
	if missing := preflight.Check("process", need); len(missing) != 0 {
		t.Fatalf("with redis-server: %+v missing", missing)
	}
}

// Another program binds a leased port before the node can: master-0's client port (the
// first lease) or its bus port (the second). The node starts again on new ports, and
// the cluster forms on them.
func TestAPortTakenBeforeItsNodeBindsIsRetried(t *testing.T) {
	for _, c := range []struct {
		name  string
		lease int
	}{{"client-port", 1}, {"bus-port", 2}} {
		t.Run(c.name, func(t *testing.T) {
			testenv.RequireRedis(t)
			var mu sync.Mutex
			leases, stolen := 0, 0
			var held net.Listener
			restore := portlease.OnTake(func(port int) {
				mu.Lock()
				defer mu.Unlock()
				if leases++; leases != c.lease {
					return
				}
				l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
				if err != nil {
					t.Errorf("steal leased port %d: %v", port, err)
					return
				}
				held, stolen = l, port
			})
			defer func() {
				restore()
				if held != nil {
					held.Close()
				}
			}()
			cl := startCluster(t, backend.Spec{})
			if stolen == 0 {
				t.Fatal("no port stolen")
			}
			used := busPorts(t, cl)
			for _, n := range cl.Nodes() {
				var p int
				fmt.Sscanf(n.Addr(), "127.0.0.1:%d", &p)
				used = append(used, p)
			}
			for _, p := range used {
				if p == stolen {
					t.Errorf("a node uses port %d, which another program holds", p)
				}
			}
			if log := logOf(t, cl, "master-0"); !strings.Contains(log, "Address already in use") {
				t.Errorf("master-0's log does not show the failed bind it was retried for:\n%s", log)
			}
		})
	}
}

// logOf is everything node name wrote to its log, every start included.
func logOf(t *testing.T, c *rediscluster.Cluster, name string) string {
	b, err := os.ReadFile(filepath.Join(c.Dir(), name, "server.log"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A replica fails over however long its election was held off. Under Redis's default
// cluster-replica-validity-factor (10), a replica whose master has been gone longer than
// 10 node timeouts plus the 10 s ping period (15 s at 500 ms) never fails over; a loaded
// machine's container cluster once outlasted that and its replica was never promoted.
// Here the two other masters are paused for 20 s after the kill, so that no election
// can be won before the replica's data is 20 s old; resumed, it is promoted.
func TestAReplicaPromotesHoweverLongItsElectionWasHeldOff(t *testing.T) {
	c := startCluster(t, backend.Spec{Masters: 3, Replicas: 1, DownAfter: 500 * time.Millisecond})
	m0, r0 := c.Masters()[0], c.ReplicasOf(0)[0]
	others := c.Masters()[1:]
	for _, m := range others {
		if err := m.Pause(); err != nil {
			t.Fatal(err)
		}
		defer func() { _ = m.Resume() }() // resumed below; this covers a failure before
	}
	if err := m0.Kill(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Second) // the fault: no majority of masters to vote for 20 s
	for _, m := range others {
		if err := m.Resume(); err != nil {
			t.Fatal(err)
		}
	}
	took := waitRole(t, r0, "master", 60*time.Second)
	t.Logf("%s promoted %v after the other masters came back, its master killed 20 s before", r0.Name(), took)
}
