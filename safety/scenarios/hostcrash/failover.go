package hostcrash

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/sentinelrig"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// hostCrashFailover: both at once. A's grant waited for the one replica (WAIT 1: the
// write reached its memory; WAITAOF 0 1: its fsync); then the master's and the
// replica's hosts lose power together. The master stays down, the replica restarts on
// what its disk kept and is promoted (REPLICAOF NO ONE, as an operator or an
// orchestrator would), and B locks there. A failover alone cannot tell WAIT from
// WAITAOF: the replica keeps its memory; a power loss takes what was not fsynced.
type hostCrashFailover struct{}

// failoverPolicies are the replica's policies a WAIT grant runs under by default: the
// one that never fsyncs and the one that fsyncs every write (everysec is asked for).
var failoverPolicies = []string{"no", "always"}

// replicated: a store whose deployment is a master with replicas and no failover of its own.
func replicated(s lab.Store) bool { return s.Spec().Kind == topologies.Replicated }

func newFailoverVariant(st lab.Store, fsync string) hostCrashVariant {
	grant := "WAIT 1"
	if st.Spec().AppendFsync != "" {
		grant = "its own demand (" + st.Strategy() + ")"
	}
	v := &results.Variant{Name: fmt.Sprintf("%s/appendfsync-%s", st.Strategy(), fsync), Measure: results.LostLocks,
		Claims: policyClaims(fsync), Params: map[string]string{"strategy": st.Strategy(), "appendfsync": fsync},
		Description: fmt.Sprintf("a master and one replica, appendonly yes, appendfsync %s, data on disks that keep "+
			"only what was fsynced; A's grant waits for %s; both hosts lose power at once; the replica restarts on "+
			"what its disk kept and is promoted; B tries there", fsync, grant)}
	return hostCrashVariant{strategy: st, fsync: fsync, Variant: lab.Variant{Variant: v}}
}

func (s hostCrashFailover) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	var variants []hostCrashVariant
	for _, st := range p.Stores("strategies") {
		fsyncs, err := policiesOf(st, p.Strings("fsync"))
		if err != nil {
			return nil, fmt.Errorf("host-crash-failover: %w", err)
		}
		for _, fsync := range fsyncs {
			variants = append(variants, newFailoverVariant(st, fsync))
		}
	}
	ttl := p.Duration("ttl")
	return lab.RunTrials(ctx, env, variants, func(ctx context.Context, v hostCrashVariant, t *lab.Trial) error {
		return failoverTrial(ctx, env, v, t, ttl)
	})
}

// failoverSpec is v's deployment: one replica, so that it is the one WAIT counted.
func failoverSpec(v hostCrashVariant) backend.Spec {
	spec := v.strategy.Spec()
	spec.Replicas, spec.ForgetfulDisk, spec.AppendFsync = 1, true, v.fsync
	return spec
}

// failoverTrial runs on a deployment of its own: the master it kills stays down.
func failoverTrial(ctx context.Context, env *lab.Env, v hostCrashVariant, t *lab.Trial, ttl time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute+ttl)
	defer cancel()
	topo, err := env.StartTopology(ctx, failoverSpec(v))
	if err != nil {
		return lab.Failed("setup", err)
	}
	defer topo.Close()
	master, replicas := topo.Masters()[0], topo.Replicas()
	if len(replicas) != 1 {
		return lab.Failed("setup", fmt.Errorf("%d replicas, want the one that acknowledges", len(replicas)))
	}
	replica := replicas[0]
	if _, ok := replica.(topologies.HostCrashed); !ok {
		return fmt.Errorf("host-crash-failover: provider %s has no disk that forgets (--provider process)",
			topo.Provider())
	}
	clients, closeA, err := lab.StoreClients(ctx, v.strategy, topo, false, t.Rec, "A")
	if err != nil {
		return err
	}
	defer closeA()
	a, res := clients[0], lab.NewResource("resource", false, t.Rec)
	if err := awaitSteadyAOF(ctx, t, replica); err != nil {
		return err
	}
	runID, err := redisadmin.RunID(ctx, replica.Addr())
	if err != nil {
		return lab.Failed("observe", err)
	}
	g, err := lab.AcquireAlone(ctx, a, t.Key, ttl, 100*time.Millisecond)
	if err != nil {
		return lab.FirstGrant(err)
	}
	lease := g.Lease
	if err := a.Enter(ctx, res, lease); err != nil {
		return err
	}
	// The power goes on both hosts: the master's never comes back.
	if _, err := nemesis.Inject(ctx, "node-kill", nemesis.Target{Topology: topo, Nodes: []topologies.Node{master},
		Recorder: t.Rec}); err != nil {
		return lab.Failed("nemesis", err)
	}
	if _, err := nemesis.Inject(ctx, "host-crash", nemesis.Target{Topology: topo, Nodes: []topologies.Node{replica},
		Recorder: t.Rec}); err != nil {
		return lab.Failed("nemesis", err)
	}
	if _, err := lab.ProveHostCrash(ctx, t, replica, runID); err != nil {
		return err
	}
	if err := promote(ctx, t, replica); err != nil {
		return err
	}
	if err := sentinelrig.ProveKeyThenContest(ctx, t, lab.RedisKeys{}, topo, replica, "the promoted "+replica.Name(),
		a, res, lease); err != nil {
		return err
	}
	if err := leaseOutlasted(lease, ttl); err != nil {
		return err
	}
	return nil
}

// promote makes the restarted replica a master, as an operator would with its master
// gone, and proves it by the role it reports.
func promote(ctx context.Context, t *lab.Trial, replica topologies.Node) error {
	if err := redisadmin.AdminDo(ctx, replica.Addr(), "REPLICAOF", "NO", "ONE"); err != nil {
		return lab.Failed("nemesis", fmt.Errorf("promote %s: %w", replica.Name(), err))
	}
	role, err := redisadmin.CurrentRole(ctx, replica.Addr())
	if err != nil {
		return lab.Failed("observe", err)
	}
	if role != "master" {
		return lab.NoFault("%s reports role %s after REPLICAOF NO ONE: not promoted", replica.Name(), role)
	}
	t.Prove("%s promoted (REPLICAOF NO ONE; role master), its master still down", replica.Name())
	return nil
}

// awaitSteadyAOF waits out the AOF rewrite a replica starts after its first full sync:
// until it ends, the writes the replica applies sit in a temporary file its appendfsync
// does not cover (a first version of this scenario lost 12 of 20 WAIT-acknowledged locks
// under always that way), a condition of its own, not the steady one measured here.
func awaitSteadyAOF(ctx context.Context, t *lab.Trial, replica topologies.Node) error {
	began := time.Now()
	for {
		rewriting, err := redisadmin.AOFRewriting(ctx, replica.Addr())
		if err != nil {
			return lab.Failed("observe", err)
		}
		if !rewriting {
			t.Prove("%s's AOF steady before A's grant (no rewrite running or scheduled, %v after the start)",
				replica.Name(), time.Since(began).Round(time.Millisecond))
			return nil
		}
		if err := lab.Sleep(ctx, 20*time.Millisecond); err != nil {
			return lab.Failed("setup", fmt.Errorf("%s's AOF rewrite did not end: %w", replica.Name(), err))
		}
	}
}
