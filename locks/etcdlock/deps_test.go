package etcdlock_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// goListDeps returns the non-test dependencies of pkgs, run from the module root.
func goListDeps(t *testing.T, pkgs ...string) []string {
	t.Helper()
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		if goBin, err = exec.LookPath("go"); err != nil {
			t.Fatalf("no go tool to list dependencies: %v", err)
		}
	}
	cmd := exec.Command(goBin, append([]string{"list", "-deps"}, pkgs...)...)
	cmd.Dir = "../.." // the module root, from locks/etcdlock
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps %v: %v\n%s", pkgs, err, out)
	}
	return strings.Fields(string(out))
}

func etcdDeps(deps []string) []string {
	var out []string
	for _, d := range deps {
		if strings.HasPrefix(d, "go.etcd.io/") {
			out = append(out, d)
		}
	}
	return out
}

// TestCorePackagesDoNotImportEtcd keeps etcd's dependency tree out of the packages every
// program and plain test builds.
func TestCorePackagesDoNotImportEtcd(t *testing.T) {
	if got := etcdDeps(goListDeps(t, "./locks", "./topologies", "./bench")); len(got) > 0 {
		t.Errorf("locks, topologies or bench depend on etcd: %v", got)
	}
	// The same listing must see etcd where it is, or the check above proves nothing.
	if got := etcdDeps(goListDeps(t, "./locks/etcdlock")); len(got) == 0 {
		t.Error("go list -deps ./locks/etcdlock shows no go.etcd.io package: the check is blind")
	}
}
