package rediscluster

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// A MEET whose node did not answer before the handshake timed out is dropped, and the
// cluster does not mend it by itself: join meets the node again until every node knows
// every other. The drop is forced (the node is stopped until the first master has
// dropped its handshake) and seen before join runs.
func TestJoinMeetsAgainANodeWhoseHandshakeWasDropped(t *testing.T) {
	t.Parallel()
	testenv.RequireRedis(t)
	ctx := context.Background()
	spec, err := CheckSpec(ProviderName, backend.Spec{Kind: Kind, Masters: 3})
	if err != nil {
		t.Fatal(err)
	}
	bin, err := redisadmin.FindServer(spec.Server)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := topologies.NewTempDir("cluster")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = topologies.RemoveTempDir(dir) })
	var layout Layout
	for _, m := range Names(spec)[:spec.Masters] {
		n, err := startNode(ctx, spec, dir, bin, m.Name, m.Role)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(n.stop)
		layout.Masters = append(layout.Masters, Member{Node: n, Bus: n.busPort, Follows: -1})
	}
	first, silent := layout.Masters[0], layout.Masters[2]
	if err := silent.Pause(); err != nil {
		t.Fatal(err)
	}
	resumed := false
	defer func() {
		if !resumed {
			_ = silent.Resume()
		}
	}()
	for _, n := range layout.Masters[1:] { // as the first round of join does
		if err := meet(ctx, first, n); err != nil {
			t.Fatal(err)
		}
	}
	awaitHandshakeDropped(t, first)
	if err := silent.Resume(); err != nil {
		t.Fatal(err)
	}
	resumed = true
	if err := layout.join(ctx, time.Minute); err != nil {
		t.Fatal(err)
	}
	if behind := layout.behind(ctx); len(behind) != 0 {
		t.Errorf("after join: %v", behind)
	}
}

// awaitHandshakeDropped waits until n's node table holds no handshake: n gave up on it.
func awaitHandshakeDropped(t *testing.T, n Member) {
	t.Helper()
	seen := false
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		v, err := redisadmin.AdminQuery(context.Background(), n.Addr(), "CLUSTER", "NODES")
		if err != nil {
			t.Fatal(err)
		}
		handshaking := strings.Contains(v.(string), "handshake")
		seen = seen || handshaking
		if seen && !handshaking {
			return
		}
	}
	t.Fatalf("%s never dropped its handshake (seen: %v)", n.Name(), seen)
}

// A node in handshake is not yet known: the node drops it if the handshake times out.
func TestAHandshakeIsNotAKnownNode(t *testing.T) {
	nodes := "07c3 127.0.0.1:30001@40001 myself,master - 0 0 1 connected 0-5460\n" +
		"67ed 127.0.0.1:30002@40002 master - 0 1426238316232 2 connected 5461-10922\n" +
		"e7d1 127.0.0.1:30003@40003 handshake - 1426238317239 0 0 disconnected\n"
	if got := pastHandshake(nodes); got != 2 {
		t.Fatalf("pastHandshake = %d, want 2: the handshake is not a known node", got)
	}
}
