package all_test

import (
	"context"
	"net"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/etcd"
	"github.com/lockbench/lockbench/backends/etcd/etcdtopo"
	"github.com/lockbench/lockbench/backends/postgres/pgtopo"
	"github.com/lockbench/lockbench/backends/redis/redistopo"
	"github.com/lockbench/lockbench/backends/zookeeper"
	"github.com/lockbench/lockbench/backends/zookeeper/zktopo"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/portlease"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// TestEveryProcessProviderRetriesAPortTakenBeforeItsServerBinds makes the CI failure
// happen on purpose: another program binds the first port a provider leased, before its
// server does. Every provider must see the bind error in its server's log, wherever it
// lies (ZooKeeper's sits under a stack trace), take new ports and serve on them.
func TestEveryProcessProviderRetriesAPortTakenBeforeItsServerBinds(t *testing.T) {
	cases := []struct {
		name     string
		provider topologies.Provider
		spec     backend.Spec
		require  func(testing.TB)
	}{
		{"redis", redistopo.Process{}, backend.Spec{Kind: topologies.Single}, func(tb testing.TB) { testenv.RequireRedis(tb) }},
		{"sentinel", redistopo.Process{}, backend.Spec{Kind: topologies.Sentinel}, func(tb testing.TB) { testenv.RequireRedis(tb) }},
		{"etcd", etcdtopo.Process{}, backend.Spec{Kind: etcd.Kind, Members: 1}, func(tb testing.TB) { testenv.RequireServer(tb, etcd.Kind) }},
		{"zookeeper", zktopo.Process{}, backend.Spec{Kind: zookeeper.Kind, Members: 1}, func(tb testing.TB) { testenv.RequireServer(tb, zookeeper.Kind) }},
		{"zookeeper-3", zktopo.Process{}, backend.Spec{Kind: zookeeper.Kind, Members: 3}, func(tb testing.TB) { testenv.RequireServer(tb, zookeeper.Kind) }},
		{"postgres", pgtopo.Process{}, backend.Spec{Kind: topologies.Postgres}, func(tb testing.TB) { testenv.RequirePostgres(tb) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.require(t)
			stolen := testenv.StealLeases(t, 1)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			topo, err := c.provider.Start(ctx, c.spec)
			if err != nil {
				t.Fatalf("start with its first port taken: %v", err)
			}
			defer topo.Close()
			taken := stolen()
			if len(taken) != 1 {
				t.Fatalf("stole %v: the provider leased no port", taken)
			}
			for _, n := range topo.Nodes() {
				if port := portOf(t, n.Addr()); port == taken[0] {
					t.Fatalf("%s serves on %d, the port another program holds", n.Name(), port)
				}
				if c, err := net.DialTimeout("tcp", n.Addr(), 5*time.Second); err != nil {
					t.Errorf("%s on %s does not accept connections: %v", n.Name(), n.Addr(), err)
				} else {
					c.Close()
				}
			}
			ports := nodePorts(t, topo)
			if err := topo.Close(); err != nil {
				t.Fatal(err)
			}
			// Close ends the leases: a long campaign must not run out of ports.
			if held := slices.DeleteFunc(ports, func(p int) bool { return !portlease.Held(p) }); len(held) > 0 {
				t.Errorf("ports %v still leased after Close", held)
			}
		})
	}
}

func nodePorts(t *testing.T, topo topologies.Topology) []int {
	var out []int
	for _, n := range topo.Nodes() {
		out = append(out, portOf(t, n.Addr()))
	}
	return out
}

func portOf(t *testing.T, addr string) int {
	t.Helper()
	_, p, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	port, err := strconv.Atoi(p)
	if err != nil {
		t.Fatal(err)
	}
	return port
}
