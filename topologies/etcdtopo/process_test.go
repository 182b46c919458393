package etcdtopo_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lockbench/lockbench/locks"
	_ "github.com/lockbench/lockbench/locks/etcdlock" // the etcd-3 strategy
	"github.com/lockbench/lockbench/locks/lockstest"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/etcdtopo"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// startProcessCluster starts an out-of-process cluster, closed when t ends.
func startProcessCluster(t *testing.T, spec topologies.Spec) *etcdtopo.Cluster {
	t.Helper()
	topo, err := etcdtopo.Process{CompactionRetention: etcdtopo.DefaultCompactionRetention}.Start(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { topo.Close() })
	return topo.(*etcdtopo.Cluster)
}

// alive says whether pid names a process that has not been reaped.
func alive(pid int) bool { return pid > 0 && !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) }

// procState is the state letter of pid in /proc (R, S, T...), "" if it is gone.
func procState(pid int) string {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return ""
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// ourChildren lists the live processes whose parent is this test process.
func ourChildren(t *testing.T) []int {
	t.Helper()
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var out []int
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 1 && f[1] == strconv.Itoa(os.Getpid()) {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			out = append(out, pid)
		}
	}
	return out
}

func TestDefaultProviderForEtcdIsOutOfProcess(t *testing.T) {
	p, err := topologies.DefaultProvider(topologies.Etcd)
	if err != nil || p.Name() != "etcd-process" {
		t.Fatalf("default etcd provider: %v, %v", p, err)
	}
	if _, err := topologies.ProviderNamed("embedded-etcd"); err != nil {
		t.Errorf("the in-process provider is no longer registered: %v", err)
	}
}

// Each member is a process of its own (not this one), and the cluster serves every
// behaviour the lock conformance suite asks of the etcd-3 strategy.
func TestProcessClusterServesLockConformance(t *testing.T) {
	c := startProcessCluster(t, topologies.Spec{Kind: topologies.Etcd, Members: 3})
	if c.Provider() != "etcd-process" {
		t.Errorf("provider %q", c.Provider())
	}
	seen := map[int]bool{}
	for i, pid := range c.Pids() {
		if pid == 0 || pid == os.Getpid() || seen[pid] || !alive(pid) {
			t.Fatalf("member %d pid %d: want a live process of its own (pids %v)", i, pid, c.Pids())
		}
		seen[pid] = true
	}
	l, err := locks.ForTopology(context.Background(), "etcd-3", c, locks.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	lockstest.Conformance(t, l, 8, 15)
}

// A SIGSTOPped leader loses its leadership to the others and catches up once resumed.
func TestProcessPausedLeaderIsReplaced(t *testing.T) {
	c := startProcessCluster(t, topologies.Spec{Kind: topologies.Etcd, Members: 3})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	leader, err := c.WaitLeader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pid := pidOf(t, c, leader)
	if err := leader.Pause(); err != nil {
		t.Fatal(err)
	}
	defer leader.Resume()
	if st := procState(pid); st != "T" && st != "t" {
		t.Errorf("paused %s (pid %d) is in state %q, want stopped", leader.Name(), pid, st)
	}
	next, err := c.WaitLeader(ctx)
	if err != nil {
		t.Fatalf("no new leader while %s is paused: %v", leader.Name(), err)
	}
	if next.Name() == leader.Name() {
		t.Fatalf("paused %s still leads", leader.Name())
	}
	var others []string
	for _, n := range c.Nodes() {
		if n.Name() != leader.Name() {
			others = append(others, n.Addr())
		}
	}
	if err := put(ctx, newClient(t, others...), "during-pause", "x", 20*time.Second); err != nil {
		t.Fatalf("put to the majority while the old leader is paused: %v", err)
	}
	if err := leader.Resume(); err != nil {
		t.Fatal(err)
	}
	only := newClient(t, leader.Addr())
	for deadline := time.Now().Add(20 * time.Second); get(t, only, "during-pause") != "x"; {
		if time.Now().After(deadline) {
			t.Fatalf("resumed %s never served the write it missed", leader.Name())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Kill is a SIGKILL of the member's process; restarted empty it rejoins under a new
// raft ID and serves what the others wrote while it was gone.
func TestProcessKillAndRestartEmpty(t *testing.T) {
	c := startProcessCluster(t, topologies.Spec{Kind: topologies.Etcd, Members: 3})
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cli := newClient(t, c.Endpoints()...)
	if err := put(ctx, cli, "a", "1", 10*time.Second); err != nil {
		t.Fatal(err)
	}
	leader, err := c.WaitLeader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pid := pidOf(t, c, leader)
	if err := leader.Kill(); err != nil {
		t.Fatal(err)
	}
	if alive(pid) || leader.Running() {
		t.Fatalf("killed %s: pid %d alive %v, running %v", leader.Name(), pid, alive(pid), leader.Running())
	}
	if err := leader.Kill(); err == nil {
		t.Error("killing a dead member succeeded")
	}
	next, err := c.WaitLeader(ctx)
	if err != nil || next.Name() == leader.Name() {
		t.Fatalf("after killing %s: leader %v, %v", leader.Name(), next, err)
	}
	if err := put(ctx, cli, "b", "2", 20*time.Second); err != nil {
		t.Fatalf("put with 2 of 3 members: %v", err)
	}
	if err := leader.Restart(ctx, topologies.RestartEmpty); err != nil {
		t.Fatal(err)
	}
	if newPid := pidOf(t, c, leader); newPid == pid || !alive(newPid) {
		t.Errorf("restarted %s runs as pid %d (was %d)", leader.Name(), newPid, pid)
	}
	only := newClient(t, leader.Addr())
	if got := get(t, only, "b"); got != "2" {
		t.Errorf("member re-added empty serves b = %q, want 2", got)
	}
	if err := next.Restart(ctx, topologies.RestartFromDisk); err != nil {
		t.Fatalf("restart %s from disk: %v", next.Name(), err)
	}
	if got := get(t, cli, "a"); got != "1" {
		t.Errorf("after the restarts a = %q, want 1", got)
	}
}

// A lone member restarted empty forgets everything.
func TestProcessLoneMemberRestartEmpty(t *testing.T) {
	c := startProcessCluster(t, topologies.Spec{Kind: topologies.Etcd})
	ctx := context.Background()
	cli := newClient(t, c.Endpoints()...)
	if err := put(ctx, cli, "kept", "yes", 10*time.Second); err != nil {
		t.Fatal(err)
	}
	node := c.Nodes()[0]
	if err := node.Restart(ctx, topologies.RestartFromDisk); err != nil {
		t.Fatal(err)
	}
	if got := get(t, cli, "kept"); got != "yes" {
		t.Errorf("after restart from disk kept = %q, want yes", got)
	}
	if err := node.Restart(ctx, topologies.RestartEmpty); err != nil {
		t.Fatal(err)
	}
	if got := get(t, cli, "kept"); got != "" {
		t.Errorf("after restart empty kept = %q, want nothing", got)
	}
}

// Close kills every member (a paused one too) and removes every dir, checked by pid.
func TestProcessCloseLeavesNoProcessAndNoDir(t *testing.T) {
	before := len(testenv.OwnedDirs("lockbench-etcd-"))
	topo, err := etcdtopo.Process{}.Start(context.Background(), topologies.Spec{Kind: topologies.Etcd, Members: 3})
	if err != nil {
		t.Fatal(err)
	}
	c := topo.(*etcdtopo.Cluster)
	pids := c.Pids()
	if err := c.Nodes()[1].Pause(); err != nil {
		t.Fatal(err)
	}
	if err := topo.Close(); err != nil {
		t.Fatal(err)
	}
	if err := topo.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	for _, pid := range pids {
		if alive(pid) {
			t.Errorf("member pid %d still exists after Close", pid)
		}
	}
	for _, d := range c.Dirs() {
		if _, err := os.Stat(d); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("member dir %s still there after Close: %v", d, err)
		}
	}
	for _, n := range topo.Nodes() {
		if n.Running() || !refusesConnections(n.Addr()) {
			t.Errorf("%s still running or serving on %s after Close", n.Name(), n.Addr())
		}
	}
	if after := len(testenv.OwnedDirs("lockbench-etcd-")); after != before {
		t.Errorf("temp dirs of this process: %d before, %d after Close", before, after)
	}
	if kids := ourChildren(t); len(kids) > 0 {
		t.Errorf("child processes left after Close: %v", kids)
	}
}

func TestProcessFailedStartLeavesNothing(t *testing.T) {
	before := len(testenv.OwnedDirs("lockbench-etcd-"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the members start, but waiting for them fails at once
	topo, err := etcdtopo.Process{}.Start(ctx, topologies.Spec{Kind: topologies.Etcd, Members: 3})
	if err == nil {
		topo.Close()
		t.Fatal("start with a cancelled context succeeded")
	}
	if after := len(testenv.OwnedDirs("lockbench-etcd-")); after != before {
		t.Errorf("temp dirs of this process: %d before, %d after a failed start (%v)", before, after, err)
	}
	if kids := ourChildren(t); len(kids) > 0 {
		t.Errorf("child processes left after a failed start: %v", kids)
	}
	for _, tc := range []struct {
		spec topologies.Spec
		want string
	}{
		{topologies.Spec{Kind: topologies.Etcd, Members: 2}, "members = 2"},
		{topologies.Spec{Kind: topologies.Single}, "runs only etcd"},
	} {
		if _, err := (etcdtopo.Process{}).Start(context.Background(), tc.spec); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("start %+v: error %v, want one naming %q", tc.spec, err, tc.want)
		}
	}
	if _, err := (etcdtopo.Process{CompactionRetention: -time.Second}).Start(context.Background(), topologies.Spec{Kind: topologies.Etcd}); err == nil || !strings.Contains(err.Error(), "compaction retention") {
		t.Errorf("negative retention: %v, want an error naming it", err)
	}
}

func pidOf(t *testing.T, c *etcdtopo.Cluster, n topologies.Node) int {
	t.Helper()
	for i, m := range c.Nodes() {
		if m.Name() == n.Name() {
			return c.Pids()[i]
		}
	}
	t.Fatalf("%s is not a member", n.Name())
	return 0
}
