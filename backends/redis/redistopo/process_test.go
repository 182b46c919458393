package redistopo_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/redis/redistopo"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
	"github.com/lockbench/lockbench/topologies/testenv"
	"github.com/redis/go-redis/v9"
)

// client reads patiently: a paused node's silence lasts however long it is waited for,
// and at 500 ms, load 48, a running sentinel's INFO timed out.
func client(t *testing.T, n topologies.Node) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: n.Addr(), MaxRetries: -1, ReadTimeout: 10 * time.Second})
	t.Cleanup(func() { c.Close() })
	return c
}

// pidOf finds the process listening as node n, by asking it.
func pidOf(t *testing.T, n topologies.Node) int {
	info, err := client(t, n).Info(context.Background(), "server").Result()
	if err != nil {
		t.Fatalf("%s: INFO server: %v", n.Name(), err)
	}
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "process_id:"); ok {
			var pid int
			if _, err := fmt.Sscan(v, &pid); err == nil {
				return pid
			}
		}
	}
	t.Fatalf("%s: no process_id in INFO", n.Name())
	return 0
}

func TestKindsStartReadyAndCloseClean(t *testing.T) {
	testenv.RequireRedis(t)
	cases := []struct {
		spec                         backend.Spec
		masters, replicas, sentinels int
	}{
		{backend.Spec{Kind: topologies.Single}, 1, 0, 0},
		{backend.Spec{Kind: topologies.Replicated}, 1, 2, 0},
		{backend.Spec{Kind: topologies.Sentinel}, 1, 2, 3},
		{backend.Spec{Kind: topologies.Redlock}, 5, 0, 0},
		{backend.Spec{Kind: topologies.Redlock, Masters: 3}, 3, 0, 0},
	}
	for _, c := range cases {
		t.Run(string(c.spec.Kind), func(t *testing.T) {
			ctx := context.Background()
			topo, err := redistopo.Process{}.Start(ctx, c.spec)
			if err != nil {
				t.Fatal(err)
			}
			defer topo.Close()
			if got := [3]int{len(topo.Masters()), len(topo.Replicas()), len(topo.Sentinels())}; got != [3]int{c.masters, c.replicas, c.sentinels} {
				t.Fatalf("masters/replicas/sentinels = %v, want %v", got, [3]int{c.masters, c.replicas, c.sentinels})
			}
			var pids []int
			for _, n := range topo.Nodes() {
				pid := pidOf(t, n)
				assertListensOnLoopbackOnly(t, n, pid)
				pids = append(pids, pid)
			}
			if c.replicas > 0 {
				info, err := redisadmin.Replication(ctx, topo.Masters()[0].Addr())
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range info.Replicas {
					if r.State != "online" {
						t.Errorf("replica %s is %s at ready", r.Addr, r.State)
					}
				}
				if len(info.Replicas) != c.replicas {
					t.Errorf("master reports %d replicas, want %d", len(info.Replicas), c.replicas)
				}
			}
			for _, s := range topo.Sentinels() {
				addr, err := redisadmin.SentinelMasterAddr(ctx, s.Addr(), topo.Spec().MasterName)
				if err != nil || addr != topo.Masters()[0].Addr() {
					t.Errorf("%s names master %q (%v), want %s", s.Name(), addr, err, topo.Masters()[0].Addr())
				}
			}
			dir := topoDir(t, topo)
			testenv.CloseTwice(t, topo)
			testenv.NoneLeft(t, pids, "server pid")
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("topology dir %s still exists after Close (%v)", dir, err)
			}
		})
	}
}

func TestNodeKillPauseResumeRestart(t *testing.T) {
	topo := testenv.Start(t, backend.Spec{Kind: topologies.Single})
	ctx := context.Background()
	m := topo.Masters()[0]
	c := client(t, m)
	if err := c.Set(ctx, "k", "v", 0).Err(); err != nil {
		t.Fatal(err)
	}

	testenv.PauseSilences(t, m, func() error { return c.Ping(ctx).Err() })

	if err := m.Restart(ctx, topologies.RestartWithSnapshot); err != nil {
		t.Fatal(err)
	}
	if v, err := client(t, m).Get(ctx, "k").Result(); err != nil || v != "v" {
		t.Errorf("after restart with snapshot: k = %q, %v; want v", v, err)
	}
	if err := m.Restart(ctx, topologies.RestartEmpty); err != nil {
		t.Fatal(err)
	}
	if err := client(t, m).Get(ctx, "k").Err(); err != redis.Nil {
		t.Errorf("after empty restart: GET k = %v, want nil", err)
	}

	pid := pidOf(t, m)
	if err := m.Kill(); err != nil {
		t.Fatal(err)
	}
	if m.Running() || !testenv.Exited(pid) {
		t.Error("killed node still running")
	}
	if err := m.Kill(); err == nil {
		t.Error("killing a dead node should say it is not running")
	}
	// A paused node must still be killable and restartable.
	if err := m.Restart(ctx, topologies.RestartEmpty); err != nil {
		t.Fatal(err)
	}
	if err := m.Pause(); err != nil {
		t.Fatal(err)
	}
	if err := m.Restart(ctx, topologies.RestartEmpty); err != nil {
		t.Fatalf("restart of a paused node: %v", err)
	}
}

func TestSpecValidation(t *testing.T) {
	// Each error must name the field and the value given (not just the field's first letter).
	bad := map[string]backend.Spec{
		`kind "no-such-store"`:    {Kind: "no-such-store"},
		"masters N = -1":          {Kind: topologies.Redlock, Masters: -1},
		"masters N = 4":           {Kind: topologies.Redlock, Masters: 4},
		"masters N = 9":           {Kind: topologies.Redlock, Masters: 9},
		"replicas = -1":           {Kind: topologies.Replicated, Replicas: -1},
		"quorum = 4":              {Kind: topologies.Sentinel, SentinelQuorum: 4},
		`appendfsync "sometimes"`: {Kind: topologies.Single, AppendFsync: "sometimes"},
	}
	for want, spec := range bad {
		_, err := redistopo.Process{}.Start(context.Background(), spec)
		if err == nil {
			t.Errorf("%s: started an invalid spec %+v", want, spec)
			continue
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
}

// topoDir is the temp dir of a process topology.
func topoDir(t *testing.T, topo topologies.Topology) string {
	d, ok := topo.(interface{ Dir() string })
	if !ok {
		t.Fatalf("%T does not report its dir", topo)
	}
	return d.Dir()
}
