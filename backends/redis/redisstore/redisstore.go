// Package redisstore registers Redis with lockbench: its four kinds, its strategies and
// libraries, its process provider, its containers, its safety adapters and its part of
// the deployment file, as one value.
package redisstore

import (
	"github.com/lockbench/lockbench/backends/redis"
	"github.com/lockbench/lockbench/backends/redis/rediscontainer"
	"github.com/lockbench/lockbench/backends/redis/redisexternal"
	"github.com/lockbench/lockbench/backends/redis/redislab"
	"github.com/lockbench/lockbench/backends/redis/redislock"
	"github.com/lockbench/lockbench/backends/redis/redistopo"
	"github.com/lockbench/lockbench/backends/store"
)

func init() {
	recipes := make([]store.Recipe, 0, len(redistopo.Kinds))
	for _, k := range redistopo.Kinds {
		recipes = append(recipes, store.Recipe{Kind: k, Start: rediscontainer.Start, Clocked: true})
	}
	store.Register(store.Store{
		Descriptor: redis.Descriptor,
		Strategies: redislock.Strategies(),
		// The process provider keeps the family's own name: it is --provider process.
		Providers:  []store.Provider{{Provider: redistopo.Process{}, Kinds: redistopo.Kinds, Default: true}},
		Containers: recipes,
		Lab:        redislab.Adapters,
		External:   &redisexternal.Store,
	})
}
