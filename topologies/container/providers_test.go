package container_test

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/etcd"
	"github.com/lockbench/lockbench/backends/zookeeper"
	"github.com/lockbench/lockbench/topologies"
	. "github.com/lockbench/lockbench/topologies/container"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// --provider names a family; each kind gets the family's member.
func TestContainerProviderFamiliesResolvePerKind(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		family string
		kind   backend.Kind
		want   string
	}{
		{"process", topologies.Single, "process"},
		{"container", topologies.Sentinel, "container"},
		{"container", topologies.Redlock, "container"},
		{"container", topologies.Postgres, "container"},
		{"container", zookeeper.Kind, "container"},
		{"container", etcd.Kind, "container"},
		// This package links etcdtopo (a member in a container is this program re-executed).
		{"process", etcd.Kind, "etcd-process"},
	} {
		p, err := topologies.ProviderFor(c.family, c.kind)
		if err != nil || p.Name() != c.want {
			t.Errorf("ProviderFor(%s, %s) = %v, %v; want %s", c.family, c.kind, p, err, c.want)
		}
	}
	if _, err := topologies.ProviderNamed("external"); err == nil || !strings.Contains(err.Error(), "--deployment") {
		t.Errorf("provider external = %v; want a clear 'not yet'", err)
	}
}

// auto prefers processes where redis-server is installed, and says why.
func TestContainerAutoPicksProcessesWhenInstalled(t *testing.T) {
	t.Parallel()
	testenv.RequireRedis(t)
	pick, why, err := topologies.AutoChoice(topologies.Single)
	if err != nil || pick != "process" || !strings.Contains(why, "redis-server") {
		t.Fatalf("auto for single = %q (%s), %v; want process because redis-server is installed", pick, why, err)
	}
}

// LOCKBENCH_PROVIDER=container makes testenv.Start run containers, for any package's tests.
func TestContainerLockbenchProviderEnv(t *testing.T) {
	requireEngine(t)
	t.Setenv(testenv.ProviderEnv, "container")
	var topo topologies.Topology
	t.Cleanup(func() { // runs after testenv's Close
		if topo != nil {
			if left := Remaining(topo); len(left) > 0 {
				t.Errorf("after Close these remain: %v", left)
			}
		}
	})
	topo = testenv.Start(t, backend.Spec{Kind: topologies.Single})
	if topo.Provider() != "container" {
		t.Fatalf("%s=container started provider %s", testenv.ProviderEnv, topo.Provider())
	}
	lockOn(t, topo.Masters()[0].Addr())
}

// The provider serves the Redis kinds and the kinds whose stores registered a recipe
// (this test program links backends/all); any other kind is refused by name, and a
// second recipe for one kind is a programming error.
func TestContainerServesTheKindsWithARecipe(t *testing.T) {
	t.Parallel()
	for _, k := range []backend.Kind{topologies.Single, topologies.Postgres, zookeeper.Kind, etcd.Kind} {
		if !(Provider{}).Serves(k) {
			t.Errorf("Serves(%s) = false", k)
		}
	}
	unknown := backend.Kind("no-such-store")
	if (Provider{}).Serves(unknown) {
		t.Errorf("Serves(%s) = true with no recipe", unknown)
	}
	defer func() {
		if recover() == nil {
			t.Error("a second recipe for etcd was accepted")
		}
	}()
	RegisterRecipe(etcd.Kind, nil)
}
