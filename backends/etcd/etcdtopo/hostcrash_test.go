package etcdtopo_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/etcd"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// A lone member on a forgetful disk keeps an acknowledged put through a host crash
// when it fsyncs its WAL. Under --unsafe-no-fsync the crash takes the WAL's records
// back, and the member no longer serves the put: gone, or (as seen with etcd 3.7.3) the
// member never becomes ready again on the WAL's fsynced header alone.
func TestHostCrashOfALoneMemberKeepsWhatItFsynced(t *testing.T) {
	testenv.NeedsServers(t)
	t.Parallel()
	for _, c := range []struct {
		name    string
		noFsync bool
	}{{"fsync", false}, {"unsafe-no-fsync", true}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cl := startProcessCluster(t, backend.Spec{Kind: etcd.Kind, UnsafeNoFsync: c.noFsync, ForgetfulDisk: true})
			node := cl.Nodes()[0]
			ctx := context.Background()
			cli := newClient(t, cl.Endpoints()...)
			if err := put(ctx, cli, "acknowledged", "yes", 10*time.Second); err != nil {
				t.Fatal(err)
			}
			restartErr := node.Restart(ctx, topologies.RestartAfterHostCrash)
			crash, err := topologies.LastHostCrash(node)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s; restart: %v", crash.Summary, restartErr)
			walLost := strings.Contains(crash.Summary, "reverted member/wal/0000000000000000-0000000000000000.wal")
			if !c.noFsync {
				if restartErr != nil || walLost || get(t, cli, "acknowledged") != "yes" {
					t.Fatalf("fsync on: restart %v, WAL reverted %v: want the put kept", restartErr, walLost)
				}
				return
			}
			if !walLost {
				t.Fatalf("--unsafe-no-fsync: the crash kept the WAL's records (%s): no fault happened", crash.Summary)
			}
			if restartErr == nil && get(t, cli, "acknowledged") == "yes" {
				t.Fatal("--unsafe-no-fsync: the put survived a crash that reverted the WAL")
			}
		})
	}
}

// The in-process member has no forgetful disk: it refuses a host crash.
func TestEmbeddedMemberRefusesAHostCrash(t *testing.T) {
	testenv.NeedsServers(t)
	t.Parallel()
	p, err := topologies.ProviderNamed("embedded-etcd")
	if err != nil {
		t.Fatal(err)
	}
	cl := startWith(t, p, backend.Spec{Kind: etcd.Kind})
	err = cl.Nodes()[0].Restart(context.Background(), topologies.RestartAfterHostCrash)
	if err == nil || !strings.Contains(err.Error(), "forgetful disk") {
		t.Fatalf("host crash of an in-process member: %v, want a refusal naming the forgetful disk", err)
	}
}
