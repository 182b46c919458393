package redislock

import (
	"context"
	"fmt"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/topologies"
)

// WaitAOFStrategy is one WAITAOF strategy: its name, the fsyncs its grant waits for,
// the deployment that can give them and the fsync policy its servers run.
type WaitAOFStrategy struct {
	Name        string
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
	{"waitaof-local", FsyncDemand{Local: 1}, topologies.Single, "everysec"},
	{"waitaof-replica", FsyncDemand{Replicas: 1}, topologies.Replicated, "always"},
	{"waitaof-both", FsyncDemand{Local: 1, Replicas: 1}, topologies.Replicated, "always"},
}

// spec runs Valkey (Redis 7.0 has no WAITAOF) with an append-only file on every server.
func (s WaitAOFStrategy) spec() backend.Spec {
	return backend.Spec{Kind: s.Kind, Server: backend.ServerValkey, AppendFsync: s.AppendFsync}
}

func (s WaitAOFStrategy) build(ctx context.Context, addr string, o locks.Options) (locks.Locker, error) {
	demand := s.Demand
	// A run's own WAIT bound, when it gave one, bounds WAITAOF too.
	demand.Timeout = o.Wait.Timeout
	return NewWaitAOF(ctx, addr, s.Name, demand, o.RedisOptions)
}

func init() {
	for _, s := range WaitAOFStrategies {
		redisconn.Allow(s.Name, append([]string{"WAITAOF"}, lockCommands...))
		locks.Register(s.Name, s.spec(), func(ctx context.Context, topo topologies.Topology,
			o locks.Options) (locks.Locker, error) {
			return s.build(ctx, topo.Masters()[0].Addr(), o)
		})
		locks.RegisterAddressed(s.Name, func(ctx context.Context, addrs []string, o locks.Options) (locks.Locker, error) {
			if len(addrs) != 1 {
				return nil, fmt.Errorf("%s: one master's address, got %d", s.Name, len(addrs))
			}
			return s.build(ctx, addrs[0], o)
		})
	}
}
