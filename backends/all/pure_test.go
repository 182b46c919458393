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

// The etcd server is linked only where a member may run or an embedded cluster start:
// the container rendering, which every store's tests link, names the member program
// without linking etcd (the server doubles a test binary's link).
func TestTheContainerRenderingLinksNoEtcdServer(t *testing.T) {
	deps := testenv.Deps(t, testenv.Module+"backends/etcd/etcdcontainer")
	if got := testenv.DependsOn(deps, "go.etcd.io/etcd/server/v3"); len(got) > 0 {
		t.Errorf("etcdcontainer links the etcd server: %v", got)
	}
	if len(testenv.DependsOn(deps, testenv.Module+"backends/etcd/etcdtopo/memberfile")) == 0 {
		t.Error("go list -deps of etcdcontainer shows no memberfile: the check is blind")
	}
}
