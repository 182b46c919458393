// Package testenv starts real servers for tests and benchmarks, and refuses to skip
// silently in CI: with CI=true a missing server is a failure.
package testenv

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/lockbench/lockbench/topologies"
)

// RequireRedis returns the redis-server binary, or skips (fails under CI=true) without one.
func RequireRedis(tb testing.TB) string {
	tb.Helper()
	bin, err := topologies.FindRedisServer()
	if err != nil {
		MissingTool(tb, err)
	}
	return bin
}

// RequirePostgres returns where the PostgreSQL server is installed, or skips (fails
// under CI=true) without it.
func RequirePostgres(tb testing.TB) topologies.PostgresInstall {
	tb.Helper()
	install, err := topologies.FindPostgres("")
	if err != nil {
		MissingTool(tb, err)
	}
	return install
}

// RequireZooKeeper returns where Java and the ZooKeeper jars are, or skips (fails under
// CI=true) without them.
func RequireZooKeeper(tb testing.TB) topologies.ZooKeeperInstall {
	tb.Helper()
	install, err := topologies.FindZooKeeper()
	if err != nil {
		MissingTool(tb, err)
	}
	return install
}

// Start launches spec with its kind's default provider and closes it when tb ends,
// pass or fail.
func Start(tb testing.TB, spec topologies.Spec) topologies.Topology {
	tb.Helper()
	provider, err := topologies.DefaultProvider(spec.Kind)
	if err != nil {
		tb.Fatal(err)
	}
	if provider.Name() == "process" {
		RequireRedis(tb)
	}
	if spec.Kind == topologies.Postgres {
		RequirePostgres(tb)
	}
	if spec.Kind == topologies.ZooKeeper {
		RequireZooKeeper(tb)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	topo, err := provider.Start(ctx, spec)
	if err != nil {
		tb.Fatalf("start %s topology: %v", spec.Kind, err)
	}
	tb.Cleanup(func() {
		if err := topo.Close(); err != nil {
			tb.Errorf("close %s topology: %v", spec.Kind, err)
		}
	})
	return topo
}

// MissingTool skips (fails under CI=true) when a tool a test needs is not installed.
func MissingTool(tb testing.TB, err error) {
	tb.Helper()
	if os.Getenv("CI") == "true" {
		tb.Fatalf("CI=true and %v", err)
	}
	tb.Skipf("%v", err)
}
