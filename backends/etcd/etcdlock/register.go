package etcdlock

import (
	"context"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/etcd"
	_ "github.com/lockbench/lockbench/backends/etcd/etcdtopo" // the provider that starts etcd
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
)

// Variants are the strategies this package registers. The unsafe ones run etcd without
// fsync: a lower bound on what consensus costs, not a deployment anyone should trust.
var Variants = []struct {
	Name          string
	Members       int
	UnsafeNoFsync bool
}{
	{"etcd", 1, false},
	{"etcd-3", 3, false},
	{"etcd-unsafe-nofsync", 1, true},
	{"etcd-3-unsafe-nofsync", 3, true},
}

func init() {
	for _, v := range Variants {
		spec := backend.Spec{Kind: etcd.Kind, Members: v.Members, UnsafeNoFsync: v.UnsafeNoFsync}
		locks.Register(v.Name, spec, func(ctx context.Context, topo topologies.Topology,
			o locks.Options) (locks.Locker, error) {
			// Every member is a client endpoint; the client balances over them.
			return New(ctx, v.Name, topologies.Addrs(topo.Masters()), Options{DialTimeout: o.Timeout, Access: o.Access,
				KeyPrefix: o.KeyPrefix})
		})
	}
}
