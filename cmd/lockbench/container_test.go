package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backends/redis/rediscontainer"
	"github.com/lockbench/lockbench/topologies/container"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// An engine that does not answer is bad input: exit 2, a message naming the provider
// and what to start, and no results folder.
func TestContainerProviderWithoutEngineExits2(t *testing.T) {
	t.Setenv("DOCKER_HOST", "tcp://127.0.0.1:1")
	out := filepath.Join(t.TempDir(), "res")
	for _, cmd := range [][]string{
		{"run", "--provider", "container", "--out", out},
		{"safety", "--scenario", "setnx-expire", "--provider", "container", "--out", out},
	} {
		var stdout, stderr bytes.Buffer
		code := run(cmd, strings.NewReader(""), &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), "provider container") || !strings.Contains(stderr.String(), "DOCKER_HOST") {
			t.Errorf("%v: exit %d, stderr %q; want exit %d naming the provider and the engine", cmd, code, stderr.String(), exitUsage)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%v left %s behind", cmd, out)
		}
	}
}

// An image that is neither here nor pullable: exit 2 before anything runs.
func TestContainerUnknownRedisImageExits2(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := (container.Provider{}).Available(ctx); err != nil {
		testenv.MissingTool(t, err)
	}
	defer rediscontainer.SetImage("")
	out := filepath.Join(t.TempDir(), "res")
	var stdout, stderr bytes.Buffer
	code := run([]string{"run", "--provider", "container", "--redis-image", "lockbench/no-such-image:0", "--out", out}, strings.NewReader(""), &stdout, &stderr)
	if code != exitUsage || !strings.Contains(stderr.String(), "lockbench/no-such-image:0") {
		t.Fatalf("exit %d, stderr %q; want exit %d naming the image", code, stderr.String(), exitUsage)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("left %s behind", out)
	}
}
