package etcdlock

import (
	"context"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/etcd"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
)

// Strategies are etcd's: one member or three, and the same without fsync (a lower bound
// on what consensus costs, not a deployment anyone should trust).
var Strategies = []locks.Strategy{
	{Strategy: backend.Strategy{Name: "etcd", Position: 5, SafetyRank: backend.RankConsensus,
		Presets: []backend.Preset{backend.RunMatrix, backend.UpdateMatrix},
		Ladder:  &backend.Rung{Adds: "Raft consensus, with a revision usable as a fencing token"},
		Synthetic: &backend.Synthetic{Attempt: 480 * time.Microsecond, RoundTrips: 1, Capacity: 4000,
			Topology: "etcd (1 member, embedded)", Small: true, OpenLoop: backend.FullMatrix},
		Probes: []backend.Probe{backend.LoneMemberDiskLoss("etcd"), backend.LoneMemberHostCrash("etcd")}},
		Spec: members(1, false), Build: clusterLocker("etcd")},
	{Strategy: backend.Strategy{Name: "etcd-3", Position: 6, SafetyRank: backend.RankConsensus,
		Presets: []backend.Preset{backend.RunMatrix},
		Ladder:  &backend.Rung{Adds: "a consensus group of several members: survives losing a minority"},
		Probes:  []backend.Probe{backend.LeaderKill("etcd-3")}},
		Spec: members(3, false), Build: clusterLocker("etcd-3")},
	{Strategy: backend.Strategy{Name: "etcd-unsafe-nofsync", Position: 26, SafetyRank: backend.RankConsensus},
		Spec: members(1, true), Build: clusterLocker("etcd-unsafe-nofsync")},
	{Strategy: backend.Strategy{Name: "etcd-3-unsafe-nofsync", Position: 27, SafetyRank: backend.RankConsensus},
		Spec: members(3, true), Build: clusterLocker("etcd-3-unsafe-nofsync")},
}

func members(n int, unsafeNoFsync bool) backend.Spec {
	return backend.Spec{Kind: etcd.Kind, Members: n, UnsafeNoFsync: unsafeNoFsync}
}

// clusterLocker builds name's locker with every member as a client endpoint; the client
// balances over them.
func clusterLocker(name string) locks.Builder {
	return func(ctx context.Context, topo topologies.Topology, o locks.Options) (locks.Locker, error) {
		return New(ctx, name, topologies.Addrs(topo.Masters()), Options{DialTimeout: o.Timeout, Access: o.Access,
			KeyPrefix: o.KeyPrefix})
	}
}
