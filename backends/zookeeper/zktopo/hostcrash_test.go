package zktopo_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/zookeeper"
	"github.com/lockbench/lockbench/backends/zookeeper/zktopo"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// A lone server fsyncs its transaction log before it answers (forceSync=yes): a znode
// it acknowledged is there after its host crashes and it restarts on what its disk
// kept. With forceSync=no the same crash takes the znode back: the fault can lose it.
func TestHostCrashOfALoneServerKeepsWhatItFsynced(t *testing.T) {
	testenv.RequireServer(t, zookeeper.Kind)
	for _, c := range []struct {
		name    string
		noFsync bool
	}{{"forceSync=yes", false}, {"forceSync=no", true}} {
		t.Run(c.name, func(t *testing.T) {
			spec := backend.Spec{Kind: zookeeper.Kind, ForgetfulDisk: true, UnsafeNoFsync: c.noFsync}
			e := testenv.Start(t, spec).(*zktopo.Ensemble)
			node := e.Nodes()[0]
			conn := connect(t, node.Addr())
			if _, err := conn.Create("/acknowledged", []byte("yes"), 0, zk.WorldACL(zk.PermAll)); err != nil {
				t.Fatal(err)
			}
			conn.Close()
			restartErr := node.Restart(context.Background(), topologies.RestartAfterHostCrash)
			crash, err := topologies.LastHostCrash(node)
			if err != nil {
				t.Fatal(err)
			}
			if restartErr != nil {
				log, _ := os.ReadFile(filepath.Join(e.Dir(), node.Name(), "server.log"))
				t.Fatalf("restart after the crash (%s): %v\n%s", crash.Summary, restartErr, log)
			}
			t.Log(crash.Summary)
			data, _, err := connect(t, node.Addr()).Get("/acknowledged")
			kept := err == nil && string(data) == "yes"
			if kept == c.noFsync {
				t.Fatalf("%s: after the crash (%s), /acknowledged %q, %v: want kept=%v", c.name, crash.Summary, data,
					err, !c.noFsync)
			}
		})
	}
}

// connect opens a session on addr, closed when t ends.
func connect(t *testing.T, addr string) *zk.Conn {
	t.Helper()
	conn, _, err := zk.Connect([]string{addr}, 10*time.Second, zk.WithLogInfo(false))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Close)
	return conn
}
