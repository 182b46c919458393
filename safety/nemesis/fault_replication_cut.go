package nemesis

import (
	"context"
	"errors"

	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// Replication cuts that really lose data on failover (NOTES.md): merely pausing a
// replica is not enough, the stream waits in socket buffers and arrives on resume.

// replicationPause runs CLIENT PAUSE Duration ALL on the target replicas (all replicas
// of the topology when Nodes is empty): they stop applying the master's stream, and
// drop what they hold unapplied if the master dies first. It heals by itself after
// Duration; the heal unpauses early.
type replicationPause struct{}

// replicationLinkKill SIGSTOPs the target replicas and kills their links on the master
// (Nodes[0] of Target is the master, the rest the replicas): the master's later writes
// go nowhere. The heal SIGCONTs the replicas, which then resynchronize.
type replicationLinkKill struct{}

func init() {
	Register(replicationPause{})
	Register(replicationLinkKill{})
}

func (replicationPause) Name() string { return "replication-pause" }

func (replicationPause) Inject(ctx context.Context, t Target) (Heal, error) {
	replicas := t.Nodes
	if len(replicas) == 0 && t.Topology != nil {
		replicas = t.Topology.Replicas()
	}
	if len(replicas) == 0 || t.Duration <= 0 {
		return nil, errors.New("needs replicas and a duration > 0")
	}
	t.note("replication-pause " + t.Duration.String() + " on " + nodeNames(replicas))
	for _, r := range replicas {
		if err := redisadmin.ClientPauseAll(ctx, r.Addr(), t.Duration); err != nil {
			return nil, err
		}
	}
	return func(ctx context.Context) error {
		var errs []error
		for _, r := range replicas {
			if r.Running() {
				errs = append(errs, redisadmin.ClientUnpause(ctx, r.Addr()))
			}
		}
		return errors.Join(errs...)
	}, nil
}

func (replicationLinkKill) Name() string { return "replication-link-kill" }

func (replicationLinkKill) Inject(ctx context.Context, t Target) (Heal, error) {
	if len(t.Nodes) < 2 {
		return nil, errors.New("needs the master then its replicas in Nodes")
	}
	master, replicas := t.Nodes[0], t.Nodes[1:]
	t.note("replication-link-kill " + nodeNames(replicas) + " from " + nodeNames(t.Nodes[:1]))
	heal := func(context.Context) error {
		var errs []error
		for _, r := range replicas {
			if r.Running() {
				errs = append(errs, r.Resume())
			}
		}
		return errors.Join(errs...)
	}
	for _, r := range replicas {
		if err := r.Pause(); err != nil {
			heal(ctx)
			return nil, err
		}
	}
	if err := redisadmin.KillReplicaLinks(ctx, master.Addr()); err != nil {
		heal(ctx)
		return nil, err
	}
	return heal, nil
}
