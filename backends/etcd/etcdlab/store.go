// Package etcdlab is etcd's safety adapter: how the lab's scenarios reach an etcd
// cluster (its leader, a lagging follower), registered with the lab
// from this store's folder.
package etcdlab

import (
	"context"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/etcd"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
)

// etcdStore is an etcd cluster, reached only through the locks registry (strategies
// etcd, etcd-3...) and the topology's leader, so this package does not carry etcd's
// dependency tree: a program that runs it imports backends/etcd/etcdlock. Its leases
// carry the lock key's create revision as their fence.
type etcdStore struct{ lab.ConsensusStore }

func init() {
	// etcd.Kind, not a name: the adapter brings its kind's descriptor (consensus, own
	// fence) into every program that runs it, so scenarios can ask for those.
	lab.RegisterStore(etcd.Kind, func(strategy string, spec backend.Spec) lab.Store {
		return etcdStore{lab.ConsensusStore{Name: strategy, Deployment: spec}}
	})
}

func (s etcdStore) FenceSource() string { return "the lock key's create revision (raft-ordered)" }

// Locker ignores fenced: every etcd lease has its revision.
func (s etcdStore) Locker(ctx context.Context, topo topologies.Topology, _ bool) (locks.Locker, error) {
	return locks.ForTopology(ctx, s.Name, topo, locks.Options{})
}
