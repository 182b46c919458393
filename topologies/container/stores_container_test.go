package container_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/etcd"
	"github.com/lockbench/lockbench/backends/zookeeper"
	"github.com/lockbench/lockbench/backends/zookeeper/zktopo/srvr"
	"github.com/lockbench/lockbench/topologies"
)

// within polls check until it returns nil or the deadline passes.
func within(t *testing.T, d time.Duration, what string, check func() error) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v: %v", what, d, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// pgExec runs sql on a fresh connection; a server that answers at all answers within
// its bound, which only keeps a dead one from hanging the test (a loaded engine is slow).
func pgExec(ctx context.Context, dsn, sql string) ([]*pgconn.Result, error) {
	return pgExecWithin(ctx, dsn, sql, 30*time.Second)
}

func pgExecWithin(ctx context.Context, dsn, sql string, bound time.Duration) ([]*pgconn.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	c, err := pgconn.Connect(ctx, dsn)
	if err != nil {
		return nil, err
	}
	defer c.Close(context.Background())
	return c.Exec(ctx, sql).ReadAll()
}

// TestContainerPostgresServesKillsAndRestarts: the server answers on its DSN, a paused
// one answers nothing until resumed, a killed one is not running, a restart from disk
// keeps a committed row and a restart empty forgets it.
func TestContainerPostgresServesKillsAndRestarts(t *testing.T) {
	t.Parallel()
	topo := startContainers(t, backend.Spec{Kind: topologies.Postgres})
	ctx := context.Background()
	dsn := topo.(interface{ DSN() string }).DSN()
	if _, err := pgExec(ctx, dsn, "CREATE TABLE kept (v int); INSERT INTO kept VALUES (7)"); err != nil {
		t.Fatalf("create on %s: %v", dsn, err)
	}
	n := topo.Masters()[0]
	if err := n.Pause(); err != nil {
		t.Fatal(err)
	}
	if _, err := pgExecWithin(ctx, dsn, "SELECT 1", 3*time.Second); err == nil {
		t.Fatal("a paused server answered")
	}
	if err := n.Resume(); err != nil {
		t.Fatal(err)
	}
	within(t, 2*time.Minute, "answer after resume", func() error {
		_, err := pgExecWithin(ctx, dsn, "SELECT 1", 3*time.Second)
		return err
	})
	if err := n.Kill(); err != nil {
		t.Fatal(err)
	}
	if n.Running() {
		t.Fatal("running after Kill")
	}
	if err := n.Restart(ctx, topologies.RestartFromDisk); err != nil {
		t.Fatal(err)
	}
	if res, err := pgExec(ctx, dsn, "SELECT v FROM kept"); err != nil || len(res[0].Rows) != 1 {
		t.Fatalf("after restart from disk: %v rows, %v; want the row kept", res, err)
	}
	if err := n.Restart(ctx, topologies.RestartEmpty); err != nil {
		t.Fatal(err)
	}
	// Only the server's own "no such table" proves it forgot: a timeout proves nothing.
	_, err := pgExec(ctx, dsn, "SELECT v FROM kept")
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "42P01" {
		t.Fatalf("after restart empty: %v; want the table gone (undefined_table, 42P01)", err)
	}
}

// TestContainerZooKeeperStandalone: one server runs standalone, reached on its published
// client port. Three (TestContainerZooKeeperLeaderIsolatedThenRejoins) and five
// (TestContainerStoresStartAtFiveMembers) each start with every member serving and one
// leading; a second three here cost three JVMs and proved nothing more.
func TestContainerZooKeeperStandalone(t *testing.T) {
	t.Parallel()
	topo := startContainers(t, backend.Spec{Kind: zookeeper.Kind, Members: 1})
	leader, err := leaderWithin(context.Background(), topo.(leaderWaiter), 30*time.Second)
	if err != nil {
		t.Fatalf("zookeeper-1: %v", err)
	}
	t.Logf("zookeeper-1: %s serves standalone", leader.Name())
}

// TestContainerEtcdServesPausesAndRestarts: a one-member cluster takes a write, a paused
// member answers nothing, a restart from disk keeps the key, a restart empty forgets it.
func TestContainerEtcdServesPausesAndRestarts(t *testing.T) {
	t.Parallel()
	topo := startContainers(t, backend.Spec{Kind: etcd.Kind})
	ctx := context.Background()
	n := topo.Masters()[0]
	cli := etcdClient(t, n.Addr())
	if _, err := cli.Put(ctx, "k", "v"); err != nil {
		t.Fatal(err)
	}
	if err := n.Pause(); err != nil {
		t.Fatal(err)
	}
	pctx, cancel := context.WithTimeout(ctx, time.Second)
	_, err := cli.Get(pctx, "k")
	cancel()
	if err == nil {
		t.Fatal("a paused member answered")
	}
	if err := n.Resume(); err != nil {
		t.Fatal(err)
	}
	if err := n.Restart(ctx, topologies.RestartFromDisk); err != nil {
		t.Fatal(err)
	}
	within(t, 2*time.Minute, "key after restart from disk", func() error { return getIs(ctx, n.Addr(), "k", 1, false) })
	if err := n.Restart(ctx, topologies.RestartEmpty); err != nil {
		t.Fatal(err)
	}
	within(t, 2*time.Minute, "key gone after restart empty", func() error { return getIs(ctx, n.Addr(), "k", 0, false) })
}

func etcdClient(t *testing.T, addrs ...string) *clientv3.Client {
	t.Helper()
	cli, err := clientv3.New(clientv3.Config{Endpoints: addrs, DialTimeout: 2 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close() })
	return cli
}

// getIs reads key on addr alone (serializable: that member's own copy) and wants count keys.
func getIs(ctx context.Context, addr, key string, count int64, serializable bool) error {
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{addr}, DialTimeout: time.Second, Logger: zap.NewNop()})
	if err != nil {
		return err
	}
	defer cli.Close()
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	var opts []clientv3.OpOption
	if serializable {
		opts = append(opts, clientv3.WithSerializable())
	}
	res, err := cli.Get(ctx, key, opts...)
	if err != nil {
		return err
	}
	if res.Count != count {
		return errors.New("key count differs")
	}
	return nil
}

// leaderWaiter is a consensus store's topology: it names its leader once there is one.
type leaderWaiter interface {
	WaitLeader(context.Context) (topologies.Node, error)
}

// leaderWithin waits up to d for c's leader.
func leaderWithin(ctx context.Context, c leaderWaiter, d time.Duration) (topologies.Node, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	return c.WaitLeader(ctx)
}

// startThreeLed starts three members of a consensus store and waits for their leader.
func startThreeLed(t *testing.T, kind backend.Kind) (partitioned, topologies.Node) {
	t.Helper()
	topo := startContainers(t, backend.Spec{Kind: kind, Members: 3})
	leader, err := leaderWithin(context.Background(), topo.(leaderWaiter), 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return topo, leader
}

type leaderAmong interface {
	LeaderAmong(context.Context, []topologies.Node) (topologies.Node, error)
	leaderWaiter
}

// TestContainerEtcdLeaderIsolatedThenRejoins: cutting the leader of etcd-3 off from both
// others makes them elect one of themselves and take writes; after the heal all three
// agree on a leader and the old one holds the write made while it was cut off.
func TestContainerEtcdLeaderIsolatedThenRejoins(t *testing.T) {
	t.Parallel()
	topo, old := startThreeLed(t, etcd.Kind)
	c := topo.(leaderAmong)
	ctx := context.Background()
	var others []topologies.Node
	for _, n := range topo.Nodes() {
		if n != old {
			others = append(others, n)
		}
	}
	if err := topologies.Isolate(topo, old, topo.Nodes()); err != nil {
		t.Fatal(err)
	}
	var fresh topologies.Node
	within(t, 2*time.Minute, "a new leader among the others", func() error {
		l, err := c.LeaderAmong(ctx, others)
		if err != nil {
			return err
		}
		if l == old {
			return errors.New("the others still follow the cut-off leader")
		}
		fresh = l
		return nil
	})
	t.Logf("cut %s off: %s elected among the others", old.Name(), fresh.Name())
	wcli := etcdClient(t, topologies.Addrs(others)...)
	pctx, pcancel := context.WithTimeout(ctx, 10*time.Second)
	_, err := wcli.Put(pctx, "written-during-cut", "1")
	pcancel()
	if err != nil {
		t.Fatalf("write on the majority side: %v", err)
	}
	if err := getIs(ctx, old.Addr(), "written-during-cut", 1, false); err == nil {
		t.Fatal("the cut-off member served a linearizable read of a write it cannot have seen")
	}
	if err := topo.HealAll(); err != nil {
		t.Fatal(err)
	}
	within(t, 2*time.Minute, "all three agree after the heal", func() error { _, err := c.LeaderAmong(ctx, topo.Nodes()); return err })
	within(t, 2*time.Minute, "the old leader holds the write", func() error { return getIs(ctx, old.Addr(), "written-during-cut", 1, true) })
}

// TestContainerZooKeeperLeaderIsolatedThenRejoins: the leader of zookeeper-3, cut off,
// stops serving and the other two elect one of themselves; after the heal it serves again.
func TestContainerZooKeeperLeaderIsolatedThenRejoins(t *testing.T) {
	t.Parallel()
	topo, old := startThreeLed(t, zookeeper.Kind)
	c := topo.(leaderWaiter)
	ctx := context.Background()
	if err := topologies.Isolate(topo, old, topo.Nodes()); err != nil {
		t.Fatal(err)
	}
	within(t, 2*time.Minute, "a new leader among the others", func() error {
		l, err := leaderWithin(ctx, c, 2*time.Second)
		if err != nil {
			return err
		}
		if l == old {
			return errors.New("the cut-off server still leads")
		}
		t.Logf("cut %s off: %s leads", old.Name(), l.Name())
		return nil
	})
	if err := topo.HealAll(); err != nil {
		t.Fatal(err)
	}
	within(t, 2*time.Minute, "the old leader serves again", func() error { _, err := srvr.Mode(ctx, old.Addr()); return err })
}

// TestContainerStoresStartAtFiveMembers: the consensus stores at the largest size the
// provider serves come up and elect a leader. Every other store and size starts in the
// tests above (PostgreSQL, ZooKeeper at 1 and 3, etcd at 1 and 3): starting them again
// here cost nine containers and changed no outcome.
func TestContainerStoresStartAtFiveMembers(t *testing.T) {
	t.Parallel()
	for _, spec := range []backend.Spec{{Kind: zookeeper.Kind, Members: 5}, {Kind: etcd.Kind, Members: 5}} {
		t.Run(fmt.Sprintf("%s-%d", spec.Kind, spec.Members), func(t *testing.T) {
			topo := startContainers(t, spec)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			leader, err := topo.(leaderWaiter).WaitLeader(ctx)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s leads", leader.Name())
		})
	}
}
