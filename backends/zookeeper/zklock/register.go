package zklock

import (
	"context"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/zookeeper"
	_ "github.com/lockbench/lockbench/backends/zookeeper/zktopo" // the provider that starts ZooKeeper
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/pooloptions"
	"github.com/lockbench/lockbench/topologies"
)

// Variants are the strategies this package registers: one standalone server, and an
// ensemble of three (a quorum of two acknowledges every write).
var Variants = []struct {
	Name    string
	Members int
}{
	{"zookeeper", 1},
	{"zookeeper-3", 3},
}

func init() {
	for _, v := range Variants {
		spec := backend.Spec{Kind: zookeeper.Kind, Members: v.Members}
		locks.Register(v.Name, spec, func(ctx context.Context, topo topologies.Topology,
			o locks.Options) (locks.Locker, error) {
			// Every server is in the connect string; each session picks one at random.
			return New(ctx, v.Name, topologies.Addrs(topo.Masters()), pooloptions.Options{PoolSize: o.PoolSize,
				Timeout: o.Timeout, Dialer: o.Dialer})
		})
	}
}
