package zookeeper

import "github.com/lockbench/lockbench/backend"

// strategies are ZooKeeper's, as backends/zookeeper/zklock builds them: one standalone server, and
// an ensemble of three.
var strategies = []backend.Strategy{
	{Name: "zookeeper", Position: 7, SafetyRank: backend.RankConsensus,
		Presets: []backend.Preset{backend.RunMatrix, backend.UpdateMatrix},
		Probes:  []backend.Probe{backend.LoneMemberDiskLoss("zookeeper"), backend.LoneMemberHostCrash("zookeeper")}},
	{Name: "zookeeper-3", Position: 8, SafetyRank: backend.RankConsensus, Presets: []backend.Preset{backend.RunMatrix},
		Probes: []backend.Probe{backend.LeaderKill("zookeeper-3")}},
}
