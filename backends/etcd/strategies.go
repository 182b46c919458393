package etcd

import (
	"time"

	"github.com/lockbench/lockbench/backend"
)

// strategies are etcd's, as backends/etcd/etcdlock builds them: one member or three, and the
// same without fsync (a lower bound on what consensus costs, not a deployment anyone
// should trust).
var strategies = []backend.Strategy{
	{Name: "etcd", Position: 5, SafetyRank: backend.RankConsensus,
		Presets: []backend.Preset{backend.RunMatrix, backend.UpdateMatrix},
		Ladder:  &backend.Rung{Adds: "Raft consensus, with a revision usable as a fencing token"},
		Synthetic: &backend.Synthetic{Attempt: 480 * time.Microsecond, RoundTrips: 1, Capacity: 4000,
			Topology: "etcd (1 member, embedded)", Small: true, OpenLoop: backend.FullMatrix},
		Probes: []backend.Probe{backend.LoneMemberDiskLoss("etcd"), backend.LoneMemberHostCrash("etcd")}},
	{Name: "etcd-3", Position: 6, SafetyRank: backend.RankConsensus, Presets: []backend.Preset{backend.RunMatrix},
		Ladder: &backend.Rung{Adds: "a consensus group of several members: survives losing a minority"},
		Probes: []backend.Probe{backend.LeaderKill("etcd-3")}},
	{Name: "etcd-unsafe-nofsync", Position: 26, SafetyRank: backend.RankConsensus},
	{Name: "etcd-3-unsafe-nofsync", Position: 27, SafetyRank: backend.RankConsensus},
}
