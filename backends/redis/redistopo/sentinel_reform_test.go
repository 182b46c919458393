package redistopo_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/redis/redistopo"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// quickSentinel is a sentinel deployment with the timings of the failover trials.
// Pings and reconnections at half of down-after keep a new master from being taken
// for dead; fast INFO makes the view fresh (left at its 10 s default for a zombie,
// so that the re-form, not sentinel, is what demotes it).
func quickSentinel(t *testing.T, downAfter time.Duration, fastInfo bool) topologies.Topology {
	t.Helper()
	topo := testenv.Start(t, backend.Spec{Kind: topologies.Sentinel, DownAfter: downAfter, FailoverTimeout: 1500 * time.Millisecond,
		ExtraConfig: []string{"repl-diskless-sync no"}})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	timers := redisadmin.SentinelTimers{PingPeriod: 150 * time.Millisecond, AskPeriod: 100 * time.Millisecond}
	if fastInfo {
		timers.InfoPeriod = 100 * time.Millisecond
	}
	if err := redisadmin.TuneSentinels(ctx, topo, timers); err != nil {
		t.Fatal(err)
	}
	return topo
}

func nodeAt(t *testing.T, topo topologies.Topology, addr string) topologies.Node {
	t.Helper()
	for _, n := range topo.Nodes() {
		if n.Addr() == addr {
			return n
		}
	}
	t.Fatalf("no node at %s", addr)
	return nil
}

func currentMaster(t *testing.T, topo topologies.Topology) topologies.Node {
	t.Helper()
	addr, err := redisadmin.SentinelMasterAddr(context.Background(), topo.Sentinels()[0].Addr(), topo.Spec().MasterName)
	if err != nil {
		t.Fatal(err)
	}
	return nodeAt(t, topo, addr)
}

// assertReformed checks the verified state ReformSentinel promises, read afresh.
func assertReformed(t *testing.T, topo topologies.Topology, r topologies.Reformed) {
	t.Helper()
	ctx := context.Background()
	info, err := redisadmin.Replication(ctx, r.Master)
	if err != nil || info.Role != "master" || len(info.Replicas) != 2 {
		t.Fatalf("master %s after reform: %+v, %v; want a master with 2 replicas", r.Master, info, err)
	}
	for _, s := range topo.Sentinels() {
		v, err := redisadmin.ReadSentinelView(ctx, s.Addr(), topo.Spec().MasterName)
		if err != nil {
			t.Fatal(err)
		}
		if v.Master.Addr != r.Master || v.Master.Has("s_down") || v.Master.Has("o_down") || v.Master.FailoverState != "" {
			t.Errorf("%s sees master %+v, want %s quiet", s.Name(), v.Master, r.Master)
		}
		if len(v.Replicas) != 2 {
			t.Errorf("%s sees replicas %+v, want 2", s.Name(), v.Replicas)
		}
	}
}

// At a 300 ms down-after, at load 30, sentinel took the promoted master for dead too and
// failed over again before the re-form read it.
func TestReformSentinelAfterKills(t *testing.T) {
	topo := quickSentinel(t, 1500*time.Millisecond, true)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for cycle := 0; cycle < 3; cycle++ {
		old := currentMaster(t, topo)
		killed := time.Now()
		if err := old.Kill(); err != nil {
			t.Fatal(err)
		}
		// A quiet machine promoted in 2-9 s (a split vote waits out two failover timeouts).
		pctx, pcancel := context.WithTimeout(ctx, time.Minute)
		next, err := redisadmin.WaitForNewMaster(pctx, topologies.Addrs(topo.Sentinels()), topo.Spec().MasterName, old.Addr())
		pcancel()
		if err != nil {
			t.Fatalf("cycle %d: %v", cycle, err)
		}
		promoted := time.Since(killed)
		rctx, rcancel := context.WithTimeout(ctx, 20*time.Second)
		r, err := topologies.Reform(rctx, topo)
		rcancel()
		if err != nil {
			t.Fatalf("cycle %d: %v", cycle, err)
		}
		t.Logf("cycle %d: promoted %s in %v, re-formed in %v more (restarted %v, repointed %v)", cycle, next, promoted.Round(time.Millisecond), r.Took.Round(time.Millisecond), r.Restarted, r.Repointed)
		if r.Master != next || len(r.Restarted) != 1 || r.Restarted[0] != old.Name() {
			t.Errorf("cycle %d: reform %+v, want master %s and %s restarted", cycle, r, next, old.Name())
		}
		if info, err := redisadmin.Replication(ctx, old.Addr()); err != nil || info.Role != "slave" || info.MasterAddr != next {
			t.Errorf("cycle %d: killed master %s after reform: %+v, %v; want a replica of %s", cycle, old.Name(), info, err, next)
		}
		assertReformed(t, topo, r)
	}
}

// A zombie: the old master was stopped through a failover and resumed; the reform
// turns it into a replica without waiting for sentinel to. At a 300 ms down-after, at
// load 20, sentinel failed over a second time before the reform read the master.
func TestReformSentinelRepointsAZombie(t *testing.T) {
	topo := quickSentinel(t, 1500*time.Millisecond, false)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	old := currentMaster(t, topo)
	if err := old.Pause(); err != nil {
		t.Fatal(err)
	}
	next, err := redisadmin.WaitForNewMaster(ctx, topologies.Addrs(topo.Sentinels()), topo.Spec().MasterName, old.Addr())
	if err != nil {
		old.Resume()
		t.Fatal(err)
	}
	if err := old.Resume(); err != nil {
		t.Fatal(err)
	}
	if role, err := redisadmin.CurrentRole(ctx, old.Addr()); err != nil || role != "master" {
		t.Fatalf("resumed old master: role %q, %v; want a zombie master", role, err)
	}
	r, err := topologies.Reform(ctx, topo)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("zombie re-formed in %v: %+v", r.Took.Round(time.Millisecond), r)
	if r.Master != next || len(r.Repointed) == 0 || r.Repointed[0] != old.Name() {
		t.Errorf("reform %+v: want master %s and %s repointed", r, next, old.Name())
	}
	assertReformed(t, topo, r)
}

// A killed master that no failover replaced (down-after far off) comes back empty
// as the master.
func TestReformSentinelRestartsAnUnreplacedMaster(t *testing.T) {
	topo := quickSentinel(t, time.Minute, true)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	old := currentMaster(t, topo)
	if err := old.Kill(); err != nil {
		t.Fatal(err)
	}
	r, err := topologies.Reform(ctx, topo)
	if err != nil {
		t.Fatal(err)
	}
	if r.Master != old.Addr() || len(r.Restarted) != 1 {
		t.Errorf("reform %+v: want %s restarted as the master", r, old.Name())
	}
	assertReformed(t, topo, r)
}

func TestTuneSentinelsRefusesAPingPeriodTooShortToPromote(t *testing.T) {
	err := redisadmin.TuneSentinels(context.Background(), nil, redisadmin.SentinelTimers{PingPeriod: 50 * time.Millisecond})
	if err == nil {
		t.Fatal("ping period 50ms accepted")
	}
}

// poolStarter starts tuned deployments for a pool and counts them; down-after as the
// re-form tests', so that a loaded machine's pings do not fail the new master over.
func poolStarter(t *testing.T, starts *int) func(ctx context.Context) (topologies.Topology, error) {
	return func(ctx context.Context) (topologies.Topology, error) {
		*starts++
		topo, err := redistopo.Process{}.Start(ctx, backend.Spec{Kind: topologies.Sentinel, DownAfter: 1500 * time.Millisecond, FailoverTimeout: 1500 * time.Millisecond,
			ExtraConfig: []string{"repl-diskless-sync no"}})
		if err != nil {
			return nil, err
		}
		if err := redisadmin.TuneSentinels(ctx, topo, redisadmin.SentinelTimers{PingPeriod: 150 * time.Millisecond, InfoPeriod: 100 * time.Millisecond}); err != nil {
			topo.Close()
			return nil, err
		}
		return topo, nil
	}
}

// take borrows a deployment from pool, failing the test when it cannot.
func take(t *testing.T, ctx context.Context, pool *topologies.SentinelPool) *topologies.Borrowed {
	t.Helper()
	b, err := pool.Take(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// assertGone fails for each pid that still has a process.
func assertGone(t *testing.T, pids []int, what string) {
	t.Helper()
	for _, pid := range pids {
		if !testenv.Exited(pid) {
			t.Errorf("pid %d %s", pid, what)
		}
	}
}

func pids(t *testing.T, topo topologies.Topology) []int {
	var out []int
	for _, n := range topo.Nodes() {
		if n.Running() {
			out = append(out, pidOf(t, n))
		}
	}
	return out
}

func TestSentinelPoolLendsAReformedDeployment(t *testing.T) {
	testenv.RequireRedis(t)
	starts := 0
	pool := topologies.NewSentinelPool(1, 30*time.Second, poolStarter(t, &starts))
	defer pool.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	first := take(t, ctx, pool)
	if first.Reformed != nil || first.FreshAfter != "" {
		t.Errorf("first loan %+v: want a fresh deployment", first)
	}
	if err := currentMaster(t, first).Kill(); err != nil {
		t.Fatal(err)
	}
	pool.Return(first)
	again := take(t, ctx, pool)
	if again.Topology != first.Topology || again.Reformed == nil || starts != 1 {
		t.Fatalf("second loan %+v after %d starts: want the first deployment, re-formed", again, starts)
	}
	assertReformed(t, again, *again.Reformed)
	running := pids(t, again)
	pool.Return(again)
	if err := pool.Close(); err != nil {
		t.Fatal(err)
	}
	assertGone(t, running, "alive after the pool closed")
}

func TestSentinelPoolStartsItsRotationAtOnce(t *testing.T) {
	testenv.RequireRedis(t)
	var starts atomic.Int32
	pool := topologies.NewSentinelPool(2, 30*time.Second, func(ctx context.Context) (topologies.Topology, error) {
		starts.Add(1)
		return redistopo.Process{}.Start(ctx, backend.Spec{Kind: topologies.Sentinel})
	})
	defer pool.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	first := take(t, ctx, pool)
	second := take(t, ctx, pool)
	if second.Topology == first.Topology || second.Reformed != nil || second.FreshAfter != "" || starts.Load() != 2 {
		t.Errorf("second loan %+v after %d starts: want the other fresh deployment, started beside the first", second, starts.Load())
	}
	pool.Return(first)
	pool.Return(second)
}

func TestSentinelPoolReplacesADeploymentThatDoesNotReform(t *testing.T) {
	testenv.RequireRedis(t)
	starts := 0
	// No failover completes within a millisecond: every re-form fails.
	pool := topologies.NewSentinelPool(1, time.Millisecond, poolStarter(t, &starts))
	defer pool.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	first := take(t, ctx, pool)
	running := pids(t, first)
	if err := currentMaster(t, first).Kill(); err != nil {
		t.Fatal(err)
	}
	pool.Return(first)
	next := take(t, ctx, pool)
	if next.Topology == first.Topology || next.FreshAfter == "" || starts != 2 {
		t.Errorf("loan after a failed re-form %+v (%d starts): want a fresh deployment saying why", next, starts)
	}
	assertGone(t, running, "of the dropped deployment still alive")
	pool.Return(next)
}
