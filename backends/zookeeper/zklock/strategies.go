package zklock

import (
	"context"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/zookeeper"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/pooloptions"
	"github.com/lockbench/lockbench/topologies"
)

// Strategies are ZooKeeper's: one standalone server, and an ensemble of three (a quorum
// of two acknowledges every write).
var Strategies = []locks.Strategy{
	{Strategy: backend.Strategy{Name: "zookeeper", Position: 7, SafetyRank: backend.RankConsensus,
		Presets: []backend.Preset{backend.RunMatrix, backend.UpdateMatrix},
		Probes:  []backend.Probe{backend.LoneMemberDiskLoss("zookeeper"), backend.LoneMemberHostCrash("zookeeper")}},
		Spec: backend.Spec{Kind: zookeeper.Kind, Members: 1}, Build: ensembleLocker("zookeeper")},
	{Strategy: backend.Strategy{Name: "zookeeper-3", Position: 8, SafetyRank: backend.RankConsensus,
		Presets: []backend.Preset{backend.RunMatrix}, Probes: []backend.Probe{backend.LeaderKill("zookeeper-3")}},
		Spec: backend.Spec{Kind: zookeeper.Kind, Members: 3}, Build: ensembleLocker("zookeeper-3")},
}

// ensembleLocker builds name's locker over every server of the ensemble: each is in the
// connect string, and each session picks one at random.
func ensembleLocker(name string) locks.Builder {
	return func(ctx context.Context, topo topologies.Topology, o locks.Options) (locks.Locker, error) {
		return New(ctx, name, topologies.Addrs(topo.Masters()), pooloptions.Options{PoolSize: o.PoolSize,
			Timeout: o.Timeout, Dialer: o.Dialer})
	}
}
