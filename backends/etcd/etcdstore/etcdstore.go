// Package etcdstore registers etcd with lockbench: its kind, its strategies, its two
// providers, its containers, its safety adapter and its part of the deployment file, as
// one value.
package etcdstore

import (
	"context"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/etcd"
	"github.com/lockbench/lockbench/backends/etcd/etcdcontainer"
	"github.com/lockbench/lockbench/backends/etcd/etcdexternal"
	"github.com/lockbench/lockbench/backends/etcd/etcdlock"
	"github.com/lockbench/lockbench/backends/etcd/etcdtopo"
	"github.com/lockbench/lockbench/backends/store"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
)

func init() {
	store.Register(store.Store{
		Descriptor: etcd.Descriptor,
		Strategies: etcdlock.Strategies,
		Providers: []store.Provider{
			store.OwnProcess(etcdtopo.Process{CompactionRetention: etcdtopo.DefaultCompactionRetention}, etcd.Kind,
				etcdtopo.AutoChoice),
			{Provider: etcdtopo.Embedded{CompactionRetention: etcdtopo.DefaultCompactionRetention},
				Kinds: []backend.Kind{etcd.Kind}, Families: []string{"embedded"}},
		},
		Containers: []store.Recipe{{Kind: etcd.Kind, Start: etcdcontainer.Start}},
		Lab:        map[backend.Kind]lab.StoreMaker{etcd.Kind: newAdapter},
		External:   &etcdexternal.Store,
	})
}

// adapter is how the safety lab reaches an etcd cluster: its leader, a lagging follower,
// and leases fenced by the lock key's create revision (the kind's OwnFence).
type adapter struct{ lab.ConsensusStore }

func newAdapter(strategy string, spec backend.Spec) lab.Store {
	return adapter{lab.ConsensusStoreOf(strategy, spec)}
}

// Locker ignores fenced: every etcd lease has its revision.
func (a adapter) Locker(ctx context.Context, topo topologies.Topology, _ bool) (locks.Locker, error) {
	return locks.ForTopology(ctx, a.Strategy(), topo, locks.Options{})
}
