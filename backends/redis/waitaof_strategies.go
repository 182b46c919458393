package redis

import "github.com/lockbench/lockbench/backend"

// The WAITAOF strategies (backends/redis/redislock/waitaof_strategies.go), on Valkey: SET
// NX, then a grant only once append-only files hold the key on disk. No preset names
// them: `lockbench run --strategies waitaof-local,...` measures them beside WAIT.
var (
	// The master's fsync: survives the master's host crash, not a failover.
	waitAOFLocal = backend.Strategy{Name: "waitaof-local", Position: 33, SafetyRank: backend.RankOneMaster}
	// A replica's fsync: a promoted replica that crashed too still holds the key.
	waitAOFReplica = backend.Strategy{Name: "waitaof-replica", Position: 34, SafetyRank: backend.RankReplicaAck}
	waitAOFBoth    = backend.Strategy{Name: "waitaof-both", Position: 35, SafetyRank: backend.RankReplicaAck}
)
