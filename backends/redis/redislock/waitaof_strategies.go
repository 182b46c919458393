package redislock

import (
	"context"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
)

// WaitAOFStrategy is one WAITAOF strategy: its name, the fsyncs its grant waits for,
// the deployment that can give them and the fsync policy its servers run.
type WaitAOFStrategy struct {
	Name        string
	Position    int
	Rank        backend.SafetyRank
	Demand      FsyncDemand
	Kind        backend.Kind
	AppendFsync string
}

// WaitAOFStrategies are the grants acknowledged after an fsync: the master's own
// (host crash of the master), a replica's (failover after a host crash), and both.
// The master fsyncs at once for a waiting WAITAOF, so everysec serves the local one;
// a replica fsyncs on its own schedule (everysec made each grant wait about 1 s), so
// the replicated ones run every server under always.
var WaitAOFStrategies = []WaitAOFStrategy{
	// The master's fsync: survives the master's host crash, not a failover.
	{"waitaof-local", 33, backend.RankOneMaster, FsyncDemand{Local: 1}, topologies.Single, "everysec"},
	// A replica's fsync: a promoted replica that crashed too still holds the key.
	{"waitaof-replica", 34, backend.RankReplicaAck, FsyncDemand{Replicas: 1}, topologies.Replicated, "always"},
	{"waitaof-both", 35, backend.RankReplicaAck, FsyncDemand{Local: 1, Replicas: 1}, topologies.Replicated, "always"},
}

// spec runs Valkey (Redis 7.0 has no WAITAOF) with an append-only file on every server.
func (s WaitAOFStrategy) spec() backend.Spec {
	return backend.Spec{Kind: s.Kind, Server: backend.ServerValkey, AppendFsync: s.AppendFsync}
}

// The WAITAOF strategies, on Valkey: SET NX, then a grant only once append-only files
// hold the key on disk. No preset names them: `lockbench run --strategies
// waitaof-local,...` measures them beside WAIT.
func init() {
	for _, s := range WaitAOFStrategies {
		declare(atOneMaster(locks.Strategy{Strategy: backend.Strategy{Name: s.Name, Position: s.Position,
			SafetyRank: s.Rank}, Spec: s.spec(), Commands: append([]string{"WAITAOF"}, lockCommands...)},
			func(ctx context.Context, addr string, o locks.Options) (locks.Locker, error) {
				demand := s.Demand
				// A run's own WAIT bound, when it gave one, bounds WAITAOF too.
				demand.Timeout = o.Wait.Timeout
				return NewWaitAOF(ctx, addr, s.Name, demand, o.Options)
			}))
	}
}
