package redislock_test

import (
	"context"
	"os/exec"
	"regexp"
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/lockstest"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// binaryVersion is the v=... field of a server binary's --version line.
func binaryVersion(t *testing.T, bin string) string {
	t.Helper()
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`\bv=(\S+)`).FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("%s --version = %q: no v= field", bin, out)
	}
	return m[1]
}

// A single Valkey server starts under the Redis kinds' process provider, says it is
// the installed valkey-server, and the single strategy passes conformance on it.
func TestValkeySingleRunsTheRedisConformance(t *testing.T) {
	bin := testenv.RequireValkey(t)
	topo := testenv.Start(t, backend.Spec{Kind: topologies.Single, Server: backend.ServerValkey})
	server, err := redisadmin.RunningServer(context.Background(), topo.Masters()[0].Addr())
	if err != nil {
		t.Fatal(err)
	}
	if want := "valkey " + binaryVersion(t, bin); server != want {
		t.Fatalf("the master says it runs %q, want %q", server, want)
	}
	l := lockstest.NewLocker(t, "single", topo, locks.Options{})
	lockstest.Conformance(t, l, 8, 25)
}
