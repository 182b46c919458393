// Package rediscontainertest is what tests that run Redis in containers need first.
package rediscontainertest

import (
	"context"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backends/redis/rediscontainer"
	"github.com/lockbench/lockbench/topologies/container"
	// Its callers run containers: the engine's client, as cmd/lockbench links it.
	_ "github.com/lockbench/lockbench/topologies/container/docker"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// RequireEngine skips without a container engine or a Redis image to run (fails under
// CI=true): the image is pulled or built here, once, before the test times its start.
func RequireEngine(tb testing.TB) {
	tb.Helper()
	testenv.NeedsServers(tb)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := (container.Provider{}).Available(ctx); err != nil {
		testenv.MissingTool(tb, err)
	}
	if _, err := rediscontainer.CheckImage(ctx); err != nil {
		testenv.MissingTool(tb, err)
	}
}
