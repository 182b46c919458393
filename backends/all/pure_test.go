package all_test

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/topologies/testenv"
)

// The packages that read results folders and draw or write from them: they take the
// stores' metadata as an argument and link no store, registry or server.
var pure = []string{"stats", "plots/...", "report/...", "outputs", "backend/backendtest"}

// TestThePurePackagesReadNoRegistry keeps statistics, figures and reports testable without
// linking every store: none reaches the program's catalog, a store, a registry of lock
// builders, providers or lab adapters, or the lab that starts servers.
func TestThePurePackagesReadNoRegistry(t *testing.T) {
	var pkgs []string
	for _, p := range pure {
		pkgs = append(pkgs, testenv.Module+p)
	}
	deps := testenv.Deps(t, pkgs...)
	for _, heavy := range []string{"backend/linked", "backends", "locks", "topologies", "safety/lab", "safety/nemesis"} {
		if got := testenv.DependsOn(deps, testenv.Module+heavy); len(got) > 0 {
			t.Errorf("%v depend on %v", pure, got)
		}
	}
	for _, d := range deps {
		if d == testenv.Module+"safety" || strings.Contains(d, "etcd") {
			t.Errorf("%v depend on %s", pure, d)
		}
	}
	// The listing must see what these packages read, or the checks above prove nothing.
	for _, read := range []string{"backend", "safety/results", "resultsdir"} {
		if len(testenv.DependsOn(deps, testenv.Module+read)) == 0 {
			t.Errorf("go list -deps of %v shows no %s: the check is blind", pure, read)
		}
	}
}

// The etcd server is linked only where a member may run or an embedded cluster start
// (etcdrun's importers): no store's registration links it, so that the test binaries
// that register every store do not carry it (the server doubles a test binary's link).
func TestOnlyEtcdrunLinksTheEtcdServer(t *testing.T) {
	const server = "go.etcd.io/etcd/server/v3"
	for _, pkg := range []string{"backends/all", "backends/etcd/etcdcontainer"} {
		deps := testenv.Deps(t, testenv.Module+pkg)
		if got := testenv.DependsOn(deps, server); len(got) > 0 {
			t.Errorf("%s links the etcd server: %v", pkg, got)
		}
		if len(testenv.DependsOn(deps, testenv.Module+"backends/etcd/etcdtopo/memberfile")) == 0 {
			t.Errorf("go list -deps of %s shows no memberfile: the check is blind", pkg)
		}
	}
	if len(testenv.DependsOn(testenv.Deps(t, testenv.Module+"backends/etcd/etcdrun"), server)) == 0 {
		t.Errorf("etcdrun does not link %s: the check names the wrong module", server)
	}
}

// The container engine's client is linked only where containers run (the importers of
// topologies/container/docker): no store's registration, container recipe included,
// links it, so that the test binaries that register every store do not carry it.
func TestOnlyTheDockerEngineLinksItsClient(t *testing.T) {
	const client = "github.com/moby/moby/client"
	deps := testenv.Deps(t, testenv.Module+"backends/all")
	if got := testenv.DependsOn(deps, client); len(got) > 0 {
		t.Errorf("backends/all links the engine's client: %v", got)
	}
	if len(testenv.DependsOn(deps, testenv.Module+"topologies/container")) == 0 {
		t.Error("go list -deps of backends/all shows no topologies/container: the check is blind")
	}
	if len(testenv.DependsOn(testenv.Deps(t, testenv.Module+"topologies/container/docker"), client)) == 0 {
		t.Errorf("topologies/container/docker does not link %s: the check names the wrong package", client)
	}
}
