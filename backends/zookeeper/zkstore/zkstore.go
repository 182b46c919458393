// Package zkstore registers ZooKeeper with lockbench: its kind, its strategies, its
// process provider, its containers and its safety adapter, as one value.
package zkstore

import (
	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/store"
	"github.com/lockbench/lockbench/backends/zookeeper"
	"github.com/lockbench/lockbench/backends/zookeeper/zkcontainer"
	"github.com/lockbench/lockbench/backends/zookeeper/zklab"
	"github.com/lockbench/lockbench/backends/zookeeper/zklock"
	"github.com/lockbench/lockbench/backends/zookeeper/zktopo"
	"github.com/lockbench/lockbench/safety/lab"
)

func init() {
	store.Register(store.Store{
		Descriptor: zookeeper.Descriptor,
		Strategies: zklock.Strategies,
		Providers:  []store.Provider{store.OwnProcess(zktopo.Process{}, zookeeper.Kind, zktopo.AutoChoice)},
		Containers: []store.Recipe{{Kind: zookeeper.Kind, Start: zkcontainer.Start}},
		Lab:        map[backend.Kind]lab.StoreMaker{zookeeper.Kind: zklab.New},
	})
}
