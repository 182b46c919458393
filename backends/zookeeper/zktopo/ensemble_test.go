package zktopo_test

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/zookeeper"
	"github.com/lockbench/lockbench/backends/zookeeper/zktopo"
	"github.com/lockbench/lockbench/backends/zookeeper/zktopo/srvr"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

func startEnsemble(t *testing.T, members int) *zktopo.Ensemble {
	t.Helper()
	return testenv.Start(t, backend.Spec{Kind: zookeeper.Kind, Members: members}).(*zktopo.Ensemble)
}

// alive says whether pid still exists (a reaped JVM answers ESRCH).
func alive(pid int) bool { return !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) }

// modes asks every server for its srvr mode ("" for one that does not answer).
func modes(e *zktopo.Ensemble) map[string]string {
	out := map[string]string{}
	for _, n := range e.Nodes() {
		m, _ := srvr.Mode(context.Background(), n.Addr())
		out[n.Name()] = m
	}
	return out
}

func TestStandaloneServesAndCloseLeavesNothing(t *testing.T) {
	testenv.RequireServer(t, zookeeper.Kind)
	for _, members := range []int{1, 3} {
		t.Run(strconv.Itoa(members), func(t *testing.T) {
			before := len(testenv.OwnedDirs("lockbench-zookeeper-"))
			topo, err := zktopo.Process{}.Start(context.Background(), backend.Spec{Kind: zookeeper.Kind, Members: members})
			if err != nil {
				t.Fatal(err)
			}
			e := topo.(*zktopo.Ensemble)
			pids := e.Pids()
			if len(pids) != members {
				t.Fatalf("%d JVMs for %d servers: %v", len(pids), members, pids)
			}
			got := modes(e)
			leaders := 0
			for name, m := range got {
				switch m {
				case "leader", "standalone":
					leaders++
				case "follower":
				default:
					t.Errorf("%s reports mode %q", name, m)
				}
			}
			if leaders != 1 {
				t.Errorf("%d leaders among %v", leaders, got)
			}
			testenv.CloseTwice(t, topo)
			testenv.NoneLeft(t, pids, "JVM")
			if _, err := os.Stat(e.Dir()); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("dir %s still there after Close: %v", e.Dir(), err)
			}
			if after := len(testenv.OwnedDirs("lockbench-zookeeper-")); after != before {
				t.Errorf("temp dirs of this process: %d before, %d after Close", before, after)
			}
		})
	}
}

func TestEvenOrBadEnsembleSizeIsRefused(t *testing.T) {
	for _, members := range []int{2, 4, 6, -1} {
		_, err := zktopo.Process{}.Start(context.Background(), backend.Spec{Kind: zookeeper.Kind, Members: members})
		if err == nil || !strings.Contains(err.Error(), "must be odd, 1, 3 or 5") || !strings.Contains(err.Error(), "= "+strconv.Itoa(members)) {
			t.Errorf("members %d: %v, want a refusal naming the size and 1, 3 or 5", members, err)
		}
	}
}

func TestPausedLeaderIsReplaced(t *testing.T) {
	e := startEnsemble(t, 3)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	leader, err := e.WaitLeader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := leader.Pause(); err != nil {
		t.Fatal(err)
	}
	next, err := e.WaitLeader(ctx)
	if err != nil {
		t.Fatalf("no new leader while %s is paused: %v (modes %v)", leader.Name(), err, modes(e))
	}
	if next.Name() == leader.Name() {
		t.Fatalf("%s still leads while paused", next.Name())
	}
	if err := leader.Resume(); err != nil {
		t.Fatal(err)
	}
	// The old leader rejoins as a follower once it notices the new epoch.
	for {
		if modes(e)[leader.Name()] == "follower" {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("%s did not rejoin as follower: %v", leader.Name(), modes(e))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// zxid is a server's last zxid from srvr, for the restart checks.
func zxid(t *testing.T, n topologies.Node) string {
	t.Helper()
	f, err := srvr.Ask(context.Background(), n.Addr())
	if err != nil {
		t.Fatalf("%s: srvr: %v", n.Name(), err)
	}
	return f["Zxid"]
}

// TestRestartFromDiskKeepsAndEmptyForgets: a lone server restarted from disk keeps its
// transaction log (its zxid stays), one restarted empty starts from zxid 0.
func TestRestartFromDiskKeepsAndEmptyForgets(t *testing.T) {
	e := startEnsemble(t, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	n := e.Nodes()[0]
	// A session's creation is a transaction: it moves the zxid off 0.
	if err := zktopo.OpenAndCloseSession(ctx, n.Addr()); err != nil {
		t.Fatal(err)
	}
	before := zxid(t, n)
	if before == "0x0" {
		t.Fatalf("zxid still %s after a session", before)
	}
	oldPid := e.Pids()[0]
	if err := n.Kill(); err != nil {
		t.Fatal(err)
	}
	if n.Running() || alive(oldPid) {
		t.Fatalf("killed JVM %d still runs", oldPid)
	}
	if err := n.Restart(ctx, topologies.RestartFromDisk); err != nil {
		t.Fatal(err)
	}
	if got := zxid(t, n); got == "0x0" {
		t.Errorf("zxid after a restart from disk: %s, want the log kept (was %s)", got, before)
	}
	if err := n.Restart(ctx, topologies.RestartEmpty); err != nil {
		t.Fatal(err)
	}
	if got := zxid(t, n); got != "0x0" {
		t.Errorf("zxid after a restart without the disk: %s, want 0x0", got)
	}
}

func TestClosePausedEnsembleLeavesNoJVM(t *testing.T) {
	testenv.RequireServer(t, zookeeper.Kind)
	topo, err := zktopo.Process{}.Start(context.Background(), backend.Spec{Kind: zookeeper.Kind, Members: 3})
	if err != nil {
		t.Fatal(err)
	}
	e := topo.(*zktopo.Ensemble)
	pids := e.Pids()
	for _, n := range e.Nodes() {
		if err := n.Pause(); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range pids {
		if alive(pid) {
			t.Errorf("paused JVM %d survived Close", pid)
		}
	}
	if _, err := os.Stat(e.Dir()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("dir %s still there after Close: %v", e.Dir(), err)
	}
}

func TestMissingZooKeeperFailsClearlyAndLeavesNothing(t *testing.T) {
	t.Setenv("ZOOKEEPER_JAVA_DIR", t.TempDir())
	before := len(testenv.OwnedDirs("lockbench-zookeeper-"))
	_, err := zktopo.Process{}.Start(context.Background(), backend.Spec{Kind: zookeeper.Kind})
	if !errors.Is(err, zookeeper.ErrNoServer) || !strings.Contains(err.Error(), "apt-get install zookeeper") {
		t.Errorf("start without zookeeper.jar: %v, want ErrNoZooKeeper naming the package", err)
	}
	if after := len(testenv.OwnedDirs("lockbench-zookeeper-")); after != before {
		t.Errorf("temp dirs of this process: %d before, %d after a failed start", before, after)
	}
}

func TestDefaultProviderForZooKeeper(t *testing.T) {
	p, err := topologies.DefaultProvider(zookeeper.Kind)
	if err != nil || p.Name() != "zookeeper-process" {
		t.Errorf("default provider for zookeeper: %v, %v", p, err)
	}
}
