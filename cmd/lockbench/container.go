package main

import (
	"context"
	"flag"
	"time"

	"github.com/lockbench/lockbench/backends/redis/rediscontainer"
	"github.com/lockbench/lockbench/topologies"
)

// registerRedisImage adds --redis-image, the image the container provider runs.
func registerRedisImage(fs *flag.FlagSet, into *string) {
	fs.StringVar(into, "redis-image", "", "container provider: the Redis image (default "+rediscontainer.OfficialImage+
		" where a registry answers, else one built from this machine's redis-server; \"host\" asks for that one; env "+
		rediscontainer.ImageEnv+")")
}

// checkProvider fails before anything runs when the chosen provider cannot serve: a
// container engine that does not answer, an image that cannot be found or pulled.
func checkProvider(name, image string) error {
	if image != "" {
		rediscontainer.SetImage(image)
	}
	if name == "" {
		return nil
	}
	p, err := topologies.ProviderNamed(name)
	if err != nil {
		return usagef("--provider: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if a, ok := p.(topologies.Available); ok {
		if err := a.Available(ctx); err != nil {
			return usagef("--provider %s: %v", name, err)
		}
	}
	if name != "container" && !(name == "auto" && autoPicksContainer()) {
		return nil
	}
	if _, err := rediscontainer.CheckImage(ctx); err != nil {
		return usagef("--provider %s: %v", name, err)
	}
	return nil
}

// autoPicksContainer reports whether --provider auto runs the Redis kinds in containers.
func autoPicksContainer() bool {
	pick, _, err := topologies.AutoChoice(topologies.Single)
	return err == nil && pick == "container"
}
