package etcdlock_test

import (
	"testing"

	"github.com/lockbench/lockbench/topologies/testenv"
)

// TestCorePackagesDoNotImportEtcd keeps etcd's dependency tree out of the packages every
// program and plain test builds, the lab, etcd's own safety adapter and the container
// and external providers (etcd's recipe and its external role, in backends/etcd,
// carry the client) among them.
func TestCorePackagesDoNotImportEtcd(t *testing.T) {
	core := []string{testenv.Module + "locks", testenv.Module + "topologies", testenv.Module + "bench", testenv.Module + "safety", testenv.Module + "safety/lab", testenv.Module + "backends/store", testenv.Module + "topologies/container", testenv.Module + "topologies/external", testenv.Module + "topologies/testenv"}
	if got := testenv.DependsOn(testenv.Deps(t, core...), "go.etcd.io"); len(got) > 0 {
		t.Errorf("%v depend on etcd: %v", core, got)
	}
	// The same listing must see etcd where it is, or the check above proves nothing.
	if got := testenv.DependsOn(testenv.Deps(t, testenv.Module+"backends/etcd/etcdlock"), "go.etcd.io"); len(got) == 0 {
		t.Error("go list -deps ./backends/etcd/etcdlock shows no go.etcd.io package: the check is blind")
	}
}
