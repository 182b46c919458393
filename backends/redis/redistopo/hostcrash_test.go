package redistopo_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/redis/redistopo"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// On a forgetful disk a host crash keeps an acknowledged write only when the AOF was
// fsynced before the reply (appendfsync always); under "no" the write is gone and the
// crash says what it dropped. A restart from disk would keep both: only a host crash
// tells the policies apart.
func TestHostCrashKeepsOnlyWhatAppendfsyncSynced(t *testing.T) {
	testenv.RequireRedis(t)
	t.Parallel()
	for _, c := range []struct {
		appendfsync string
		kept        bool
	}{{"always", true}, {"no", false}} {
		t.Run(c.appendfsync, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			topo, err := redistopo.Process{}.Start(ctx, backend.Spec{Kind: topologies.Single, AppendFsync: c.appendfsync,
				ForgetfulDisk: true})
			if err != nil {
				t.Fatal(err)
			}
			defer topo.Close()
			m := topo.Masters()[0]
			if err := client(t, m).Set(ctx, "acknowledged", "v", 0).Err(); err != nil {
				t.Fatal(err)
			}
			if err := m.Restart(ctx, topologies.RestartAfterHostCrash); err != nil {
				t.Fatal(err)
			}
			crash, err := topologies.LastHostCrash(m)
			if err != nil {
				t.Fatal(err)
			}
			err = client(t, m).Get(ctx, "acknowledged").Err()
			if kept := err == nil; kept != c.kept || (err != nil && !errors.Is(err, redis.Nil)) {
				t.Fatalf("appendfsync %s: GET after the host crash: %v, want kept %v (%s)", c.appendfsync, err, c.kept,
					crash.Summary)
			}
			if crash.Lost == c.kept || (!c.kept && !strings.Contains(crash.Summary, "appendonlydir/")) {
				t.Fatalf("appendfsync %s: the crash report %q: want the AOF's unsynced bytes dropped exactly when the "+
					"key is lost", c.appendfsync, crash.Summary)
			}
		})
	}
}

// A node on an ordinary disk refuses a host crash rather than pass a restart from
// disk off as one.
func TestHostCrashNeedsAForgetfulDisk(t *testing.T) {
	testenv.RequireRedis(t)
	t.Parallel()
	ctx := context.Background()
	topo, err := redistopo.Process{}.Start(ctx, backend.Spec{Kind: topologies.Single, AppendFsync: "always"})
	if err != nil {
		t.Fatal(err)
	}
	defer topo.Close()
	m := topo.Masters()[0]
	if err := m.Restart(ctx, topologies.RestartAfterHostCrash); err == nil || !strings.Contains(err.Error(), "forgetful disk") {
		t.Fatalf("restart after a host crash on an ordinary disk: %v, want a refusal naming the forgetful disk", err)
	}
	if _, err := topologies.LastHostCrash(m); err == nil {
		t.Fatal("a node with no forgetful disk reported a host crash")
	}
}
