package consensus

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
)

// etcdLeaderKill kills etcd's leader right after a grant. Raft committed the lock to a
// majority before answering, so the new leader still has it: a second client is
// refused until the holder releases, and the next grant's revision fence is larger.
// The counterpart shows what the guarantee rests on: a lone member that loses its disk
// forgets the lock and starts its revisions again, so fences go backwards.
type etcdLeaderKill struct{}

// defaultConsensus are the lock services it runs on unless told, each as a group of
// three (its leader killed) or a lone member (its disk lost); any consensus store fits.
var defaultConsensus = []string{"etcd-3", "etcd", "zookeeper-3", "zookeeper"}

// loneMember says whether a consensus store runs on one member, as its deployment says.
func loneMember(st lab.Store) bool { return st.Spec().WithDefaults(linked.Catalog()).Members == 1 }

type etcdKillVariant struct {
	lab.Variant
	strategy string
	// loseDisk restarts the only member without its data instead of killing the leader
	// of three (which comes back from disk after the trial).
	loseDisk bool
}

func (s etcdLeaderKill) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	ttl, probe, election := p.Duration("ttl"), p.Duration("probe"), p.Duration("election-timeout")
	if probe >= ttl {
		return nil,
			&lab.ParamError{Name: "probe", Value: env.Params["probe"], Want: "a duration shorter than ttl (" + ttl.String() +
				")"}
	}
	rep := env.NewReport()
	for _, st := range p.Stores("strategies") {
		v := leaderKillVariant(st)
		part, err := s.runVariant(ctx, env, st.(lab.Failover), v, ttl, probe, election)
		if err != nil {
			return nil, err
		}
		rep.Variants = append(rep.Variants, part.Variants...)
	}
	return rep, nil
}

// leaderKillVariant is the strategy's variant: its leader killed, or, for a lone
// member, its disk lost.
func leaderKillVariant(st lab.Store) etcdKillVariant {
	strategy := st.Strategy()
	if loneMember(st) {
		return etcdKillVariant{lab.Variant{Variant: &results.Variant{Name: strategy + "-lone-member-disk-loss",
			Description: "1 member restarted without its data dir right after A's grant: B gets the lock with a smaller fence",
			Measure:     results.ReissuedTokens,
			Claims:      []results.Claim{results.Always(results.ReissuedTokens), results.Always(results.Violations)}}},
			strategy, true}
	}
	return etcdKillVariant{lab.Variant{Variant: &results.Variant{Name: strategy + "-leader-kill",
		Description: fmt.Sprintf("%d members; SIGKILL-equivalent of the leader right after A's grant: "+
			"B is refused, B's later fence exceeds A's", st.Spec().WithDefaults(linked.Catalog()).Members),
		Measure: results.Violations, Claims: []results.Claim{results.Holds(results.Violations),
			results.Holds(results.ReissuedTokens), results.Holds(results.StaleAccepted)}}}, strategy, false}
}

func (s etcdLeaderKill) runVariant(ctx context.Context, env *lab.Env, st lab.Failover, v etcdKillVariant, ttl, probe,
	election time.Duration) (*results.Report, error) {
	topo, err := env.StartTopology(ctx, st.Spec())
	if err != nil {
		return nil, err
	}
	defer topo.Close()
	return lab.RunTrials(ctx, env, []etcdKillVariant{v},
		func(ctx context.Context, v etcdKillVariant, t *lab.Trial) error {
			err := s.trial(ctx, topo, st, v, t, ttl, probe, election)
			// The next trial needs every member again: a killed one comes back from disk.
			for _, n := range topo.Nodes() {
				if !n.Running() {
					if rerr := n.Restart(ctx, topologies.RestartFromDisk); rerr != nil && err == nil {
						err = lab.Failed("heal", fmt.Errorf("restart %s: %w", n.Name(), rerr))
					}
				}
			}
			return err
		})
}

func (s etcdLeaderKill) trial(ctx context.Context, topo topologies.Topology, st lab.Failover, v etcdKillVariant,
	t *lab.Trial, ttl, probe, election time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute+election)
	defer cancel()
	res := lab.NewResource("resource", true, t.Rec)
	newClient := func(id string) (*lab.Client, locks.Locker, error) {
		l, err := st.Locker(ctx, topo, true)
		if err != nil {
			return nil, nil, lab.Failed("setup", fmt.Errorf("client %s: %w", id, err))
		}
		return lab.NewClient(id, l, t.Rec), l, nil
	}
	a, la, err := newClient("A")
	if err != nil {
		return err
	}
	defer la.Close()
	b, lb, err := newClient("B")
	if err != nil {
		return err
	}
	defer lb.Close()

	leaseA, err := lab.AcquireThroughFaults(ctx, a, t.Key, ttl, 30*time.Second)
	if err != nil {
		return lab.Failed("first-acquire", err)
	}
	if err := a.Enter(ctx, res, leaseA); err != nil {
		return err
	}
	a.Write(ctx, res, leaseA)

	if v.loseDisk {
		if err := s.loseDisk(ctx, t, topo, st, leaseA, ttl); err != nil {
			return err
		}
	} else {
		lctx, lcancel := context.WithTimeout(ctx, election)
		leader, err := st.Primary(lctx, topo)
		lcancel()
		if err != nil {
			return lab.NoFault("no leader to kill: %v", err)
		}
		if _, err := lab.KillPrimary(ctx, t, st, topo, leader, election); err != nil {
			return err
		}
	}

	// B tries while A still holds its lease: a grant here is a lost lock.
	leaseB, err := lab.AcquireThroughFaults(ctx, b, t.Key, ttl, s.probeFor(v, leaseA, probe))
	switch {
	case err == nil:
		b.Work(ctx, res, leaseB, nil)
		lab.ReleaseSoon(ctx, b, leaseB)
	case v.loseDisk && ctx.Err() == nil:
		// The store forgot A's lease (loseDisk proved it): B kept out until A's lease ended
		// was late reaching the restarted member, and the trial shows nothing of the loss.
		a.Leave(res, leaseA)
		return lab.NoFault("B was not granted while A's lease lasted, after the store forgot it: %v", err)
	}
	a.Leave(res, leaseA)
	lab.ReleaseSoon(ctx, a, leaseA)
	// Once A let go, B's grant must carry a larger fence than A's.
	leaseB, err = lab.AcquireThroughFaults(ctx, b, t.Key, ttl, 30*time.Second)
	if err != nil {
		return lab.Failed("second-acquire", fmt.Errorf("B after A's release: %w", err))
	}
	b.Work(ctx, res, leaseB, nil)
	lab.ReleaseSoon(ctx, b, leaseB)
	return nil
}

// probeFor is how long B tries while A holds: probe after a leader's death, where B
// is expected to be refused; after a lost disk, where B is expected in, as long as A's
// lease lasts, so that a client slow to reconnect to the restarted member on a busy
// machine is not taken for a lock that held.
func (etcdLeaderKill) probeFor(v etcdKillVariant, leaseA locks.Lease, probe time.Duration) time.Duration {
	if left := time.Until(leaseA.ValidUntil); v.loseDisk && left > probe {
		return left
	}
	return probe
}

// loseDisk restarts every member without its data, then proves the store forgot A's
// lease: an observer's keep-alive of it is refused.
func (s etcdLeaderKill) loseDisk(ctx context.Context, t *lab.Trial, topo topologies.Topology, st lab.Failover,
	lease locks.Lease, ttl time.Duration) error {
	if _,
		err := nemesis.Inject(ctx, "node-restart-empty",
		nemesis.Target{Topology: topo, Nodes: topo.Nodes(), Recorder: t.Rec}); err != nil {
		return lab.Failed("nemesis", err)
	}
	observer, err := st.Locker(ctx, topo, true)
	if err != nil {
		return lab.Failed("setup", err)
	}
	defer observer.Close()
	var last error
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		octx, cancel := context.WithTimeout(ctx, 2*time.Second)
		_, last = observer.Extend(octx, lease, ttl)
		cancel()
		if errors.Is(last, locks.ErrNotHeld) {
			t.Prove("after the empty restart the store no longer knows A's lease %s", lease.Token)
			return nil
		}
		if last == nil {
			return lab.NoFault("the restarted member still knows A's lease: nothing was lost")
		}
		_ = lab.Sleep(ctx, 50*time.Millisecond)
	}
	return lab.Failed("observe", fmt.Errorf("the restarted member did not answer about A's lease: %w", last))
}
