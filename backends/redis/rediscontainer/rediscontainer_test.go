package rediscontainer_test

import (
	"context"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/redis/rediscontainer/rediscontainertest"
	_ "github.com/lockbench/lockbench/backends/redis/redisstore" // the Redis recipes, as cmd/lockbench links them
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// A replica restarted from disk rejoins its master: REPLICAOF went into its config by
// CONFIG REWRITE after the first start, and the recipe writes the config before the
// first start only, so the restart keeps it (as the process provider's replicas do).
func TestRestartedReplicaRejoinsItsMaster(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	rediscontainertest.RequireEngine(t)
	topo := testenv.StartNamed(t, "container", backend.Spec{Kind: topologies.Replicated, Replicas: 1})
	master, replica := topo.Masters()[0], topo.Replicas()[0]
	if got := replica.Role(); got != topologies.RoleReplica {
		t.Fatalf("the replica's role is %s", got)
	}
	if err := replica.Restart(ctx, topologies.RestartFromDisk); err != nil {
		t.Fatal(err)
	}
	if err := redisadmin.AdminDo(ctx, master.Addr(), "SET", "after-restart", "v"); err != nil {
		t.Fatal(err)
	}
	var last redisadmin.ReplicationInfo
	rejoined := testenv.Poll(t, 30*time.Second, 20*time.Millisecond, func() (bool, error) {
		info, err := redisadmin.Replication(ctx, replica.Addr())
		if err != nil {
			return false, nil // still loading
		}
		last = info
		if info.Role != "slave" || !info.LinkUp {
			return false, nil
		}
		st, err := redisadmin.ReadKey(ctx, replica.Addr(), "after-restart")
		return err == nil && st.Present, nil
	})
	if !rejoined {
		t.Fatalf("the restarted replica did not rejoin %s within 30 s and copy a new write (last: %+v)", master.Addr(), last)
	}
}
