// Package clusterstore registers Redis Cluster with lockbench: its kind, its strategies,
// its process and container providers and its safety adapter, as one value.
package clusterstore

import (
	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/rediscluster"
	"github.com/lockbench/lockbench/backends/rediscluster/clustercontainer"
	"github.com/lockbench/lockbench/backends/rediscluster/clusterlab"
	"github.com/lockbench/lockbench/backends/store"
	"github.com/lockbench/lockbench/safety/lab"
)

func init() {
	store.Register(store.Store{
		Descriptor: rediscluster.Descriptor,
		Strategies: rediscluster.Strategies,
		Providers: []store.Provider{
			store.OwnProcess(rediscluster.Process{}, rediscluster.Kind, nil),
			{Provider: clustercontainer.Provider{}, Kinds: []backend.Kind{rediscluster.Kind}, Families: []string{"container"}},
		},
		Lab: map[backend.Kind]lab.StoreMaker{rediscluster.Kind: clusterlab.New},
	})
}
