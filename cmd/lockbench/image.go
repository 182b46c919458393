package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/lockbench/lockbench/backends/redis"
	"github.com/lockbench/lockbench/backends/redis/rediscontainer"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/container"
)

func init() {
	commands["image"] = command{"build (once) and print the tag of a container image: lockbench image worker (this " +
		"program and the host's redis-server, for Compose or Kubernetes workers) or lockbench image redis", runImage}
}

// images are what `lockbench image` can build, by name.
var images = map[string]func(context.Context) (string, error){
	"worker": workerImage,
	"redis":  rediscontainer.CheckImage,
}

func runImage(args []string, _ io.Reader, stdout, _ io.Writer) error {
	if len(args) != 1 || images[args[0]] == nil {
		return usagef("want one image name: worker or redis, got %q", args)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := engineAnswers(ctx); err != nil {
		return err
	}
	tag, err := images[args[0]](ctx)
	if err != nil {
		return fmt.Errorf("image %s: %w", args[0], err)
	}
	fmt.Fprintln(stdout, tag)
	return nil
}

// engineAnswers is a usage error naming what to start when no container engine answers.
func engineAnswers(ctx context.Context) error {
	p, err := topologies.ProviderNamed("container")
	if err != nil {
		return err
	}
	if a, ok := p.(topologies.Available); ok {
		if err := a.Available(ctx); err != nil {
			return usagef("%v", err)
		}
	}
	return nil
}

// workerImage is this program as a load worker, with the host's redis-server when there
// is one: the server a safety worker starts as processes.
func workerImage(ctx context.Context) (string, error) {
	var servers []string
	if server, err := redis.Server.Find(); err == nil {
		servers = append(servers, server)
	}
	return container.WorkerImage(ctx, servers...)
}
