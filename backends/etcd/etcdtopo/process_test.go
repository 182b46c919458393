package etcdtopo_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/etcd"
	"github.com/lockbench/lockbench/backends/etcd/etcdtopo"
	"github.com/lockbench/lockbench/internal/reexec"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/lockstest"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// startProcessCluster starts an out-of-process cluster, closed when t ends.
func startProcessCluster(t *testing.T, spec backend.Spec) *etcdtopo.Cluster {
	t.Helper()
	topo, err := etcdtopo.Process{CompactionRetention: etcdtopo.DefaultCompactionRetention}.Start(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { topo.Close() })
	return topo.(*etcdtopo.Cluster)
}

// alive says whether pid names a process that has not been reaped.
func alive(pid int) bool { return pid > 0 && !testenv.Exited(pid) }

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
	p, err := topologies.DefaultProvider(etcd.Kind)
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
	testenv.NeedsServers(t)
	t.Parallel() // its own cluster: nothing shared to fault
	c := startProcessCluster(t, backend.Spec{Kind: etcd.Kind, Members: 3})
	if c.Provider() != "etcd-process" {
		t.Errorf("provider %q", c.Provider())
	}
	want, err := reexec.Executable()
	if err != nil {
		t.Fatal(err)
	}
	want, _ = filepath.EvalSymlinks(want)
	seen := map[int]bool{}
	for i, pid := range c.Pids() {
		if pid == 0 || pid == os.Getpid() || seen[pid] || !alive(pid) {
			t.Fatalf("member %d pid %d: want a live process of its own (pids %v)", i, pid, c.Pids())
		}
		seen[pid] = true
		// make test names a build without the race detector; else this test binary.
		if exe, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe"); err != nil || exe != want {
			t.Errorf("member %d runs %q (%v), want %s", i, exe, err, want)
		}
	}
	l, err := locks.ForTopology(context.Background(), "etcd-3", c, locks.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	lockstest.ConformanceAt(t, l, 10*time.Second, 8, 15)
}

// The out-of-process provider refuses, before it starts anything, what it cannot run.
func TestProcessStartRefusesWhatItCannotRun(t *testing.T) {
	for _, tc := range []struct {
		spec backend.Spec
		want string
	}{
		{backend.Spec{Kind: etcd.Kind, Members: 2}, "members = 2"},
		{backend.Spec{Kind: topologies.Single}, "runs only etcd"},
	} {
		if _, err := (etcdtopo.Process{}).Start(context.Background(), tc.spec); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("start %+v: error %v, want one naming %q", tc.spec, err, tc.want)
		}
	}
	if _, err := (etcdtopo.Process{CompactionRetention: -time.Second}).Start(context.Background(), backend.Spec{Kind: etcd.Kind}); err == nil || !strings.Contains(err.Error(), "compaction retention") {
		t.Errorf("negative retention: %v, want an error naming it", err)
	}
}

// A member program named by the environment must be one; the error names the variable.
func TestAMemberProgramThatIsNoneIsRefused(t *testing.T) {
	for _, exe := range []string{filepath.Join(t.TempDir(), "missing"), t.TempDir()} {
		t.Setenv(reexec.Env, exe)
		_, err := etcdtopo.Process{}.Start(context.Background(), backend.Spec{Kind: etcd.Kind})
		if err == nil || !strings.Contains(err.Error(), reexec.Env) {
			t.Errorf("%s=%s: error %v, want one naming the variable", reexec.Env, exe, err)
		}
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
