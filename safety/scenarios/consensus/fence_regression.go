package consensus

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/safety/history"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
)

// fenceRegression: the fencing counter lives in the store that grants the lock. On
// Redis it is an INCR on the sentinel-managed master: writes the replicas never applied
// vanish in a failover, the counter with them, and the new master hands out tokens
// again. Both harms are counted: a fenced resource that saw the lost tokens refuses the
// honest new holder, and two fenced resources that saw different writes answer the
// same holder differently. On etcd the fence is the raft-ordered revision: raft elects
// only a member holding every committed entry, so fences keep growing even when a
// follower lagged until the leader died. On a ZooKeeper ensemble a third
// variant restarts a follower with an empty disk first: it must sync from the leader.
// On a Redis Cluster (--param strategies=cluster) the fence is an INCR in the lock
// key's slot, on the slot's master, replicated as asynchronously as Sentinel's.
type fenceRegression struct{}

func fitsFenceRegression(s lab.Store) bool {
	_, lags := s.(lab.ReplicationControl)
	return (lab.IsFailover(s) || lab.IsKeyedFailover(s)) && lags
}

// fenceLinearizable says whether the store declares its fences raft-ordered.
func fenceLinearizable(s lab.Store) bool {
	l, ok := s.(interface{ FenceLinearizable() bool })
	return ok && l.FenceLinearizable()
}

type fenceVariant struct {
	lab.Variant
	store lab.Store
	lag   bool // the followers lag during A's last cycles
	// emptyRestart restarts a follower without its disk before A's last cycles
	// (ZooKeeper ensembles: the server must rejoin and sync from the leader).
	emptyRestart bool
}

func (s fenceRegression) variants(st lab.Store) []fenceVariant {
	harms := []results.Measure{results.ReissuedTokens, results.HonestRejected, results.Diverged}
	claim := func(lossy bool) []results.Claim {
		var cs []results.Claim
		for _, m := range harms {
			if lossy {
				cs = append(cs, results.Breaks(m))
			} else {
				cs = append(cs, results.Holds(m))
			}
		}
		return cs
	}
	name := st.Strategy()
	mk := func(suffix, what string, claims []results.Claim) lab.Variant {
		return lab.Variant{Variant: &results.Variant{Name: name + "/" + suffix, Measure: results.ReissuedTokens,
			Claims: claims,
			Params: map[string]string{"strategy": name, "fence": st.FenceSource()}, Description: name + ": " + what}}
	}
	out := []fenceVariant{
		{mk("lagging-followers",
			"the followers lag (Redis: every replica stopped and its link cut; etcd: one follower paused; each "+
				"resumed once the primary is dead) while A's last cycles reach resource-1 only; the primary is killed; "+
				"B locks on the new one",
			claim(!fenceLinearizable(st))), st, true, false},
		{mk("replicated", "control: every write reached every follower before the primary is killed", claim(false)), st,
			false, false},
	}
	if _, ok := st.(lab.FollowerEmptyRestarter); ok {
		// Measured on ZooKeeper (docs/zookeeper.md): the empty server syncs from the leader, so no fence regresses.
		out = append(out, fenceVariant{mk("follower-restarted-empty",
			"a follower loses its disk and restarts (marker file gone, it rejoins and syncs from the leader) before A's last "+
				"cycles; the leader is killed; B locks on the new one",
			claim(false)), st, false, true})
	}
	return out
}

func (s fenceRegression) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	rep := env.NewReport()
	for _, st := range p.Stores("strategies") {
		spec := st.Spec()
		if backend.KindIs[backend.Failover](linked.Catalog(), spec.Kind) { // sentinels: a quick failover over two replicas
			spec.Replicas, spec.DownAfter, spec.FailoverTimeout = 2, 500*time.Millisecond, 3*time.Second
		}
		if backend.KindIs[backend.Consensus](linked.Catalog(), spec.Kind) && spec.Members < 3 {
			return nil, &lab.ParamError{Name: "strategies", Value: env.Params["strategies"],
				Want: "stores with followers: " + st.Strategy() + " has one member"}
		}
		part, err := lab.RunTrials(ctx, env, s.variants(st), func(ctx context.Context, v fenceVariant,
			t *lab.Trial) error {
			return s.trial(ctx, env, spec, v, t, p.Int("cycles"), p.Duration("promotion-timeout"))
		})
		if err != nil {
			return nil, err
		}
		rep.Variants = append(rep.Variants, part.Variants...)
	}
	return rep, nil
}

// fencedCycle locks (through a failover in progress), enters r1, writes to each of
// writeTo, leaves and releases.
func fencedCycle(ctx context.Context, c *lab.Client, key string, r1 *lab.Resource, writeTo ...*lab.Resource) error {
	lease, err := lab.AcquireThroughFaults(ctx, c, key, 10*time.Second, time.Minute)
	if err != nil {
		return lab.Failed("acquire", fmt.Errorf("%s: %w", c.ID, err))
	}
	if err := c.Enter(ctx, r1, lease); err != nil {
		return err
	}
	for _, r := range writeTo {
		if _, err := c.Write(ctx, r, lease); err != nil {
			return err
		}
	}
	c.Leave(r1, lease)
	lab.ReleaseSoon(ctx, c, lease)
	return nil
}

// fencedCycles runs n fencedCycles in a row, stopping at the first error.
func fencedCycles(ctx context.Context, c *lab.Client, key string, n int, r1 *lab.Resource,
	writeTo ...*lab.Resource) error {
	for i := 0; i < n; i++ {
		if err := fencedCycle(ctx, c, key, r1, writeTo...); err != nil {
			return err
		}
	}
	return nil
}

// fencedClient is a recorded client of st's fenced lock; closing its Locker is the
// caller's.
func fencedClient(ctx context.Context, st lab.Store, topo topologies.Topology, id string,
	rec *history.Recorder) (*lab.Client, error) {
	l, err := st.Locker(ctx, topo, true)
	if err != nil {
		return nil, lab.Failed("setup", err)
	}
	return lab.NewClient(id, l, rec), nil
}

func (s fenceRegression) trial(ctx context.Context, env *lab.Env, spec backend.Spec, v fenceVariant, t *lab.Trial,
	cycles int, promotion time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute+promotion)
	defer cancel()
	topo, err := env.StartTopology(ctx, spec)
	if err != nil {
		return lab.Failed("setup", err)
	}
	defer topo.Close()
	st, ctl := v.store, v.store.(lab.ReplicationControl)
	r1 := lab.NewResource("resource-1", true, t.Rec)
	r2 := lab.NewResource("resource-2", true, t.Rec) // a second store the holders update last

	a, err := fencedClient(ctx, st, topo, "A", t.Rec)
	if err != nil {
		return err
	}
	defer a.Locker.Close()
	if err := fencedCycles(ctx, a, t.Key, cycles, r1, r1, r2); err != nil {
		return err
	}
	primary, err := lab.PrimaryOf(ctx, st, topo, t.Key)
	if err != nil {
		return lab.NoFault("no primary to fail over: %v", err)
	}
	if err := ctl.Synced(ctx, topo, primary); err != nil {
		return lab.Failed("sync", err)
	}
	endLag := nemesis.NoHeal
	if v.lag {
		if endLag, err = ctl.Lag(ctx, t, topo, primary); err != nil {
			return lab.Failed("nemesis", err)
		}
		// A follower still cut off must not outlive the trial.
		defer func() { _ = endLag(context.Background()) }()
	}
	var restarted topologies.Node
	if v.emptyRestart {
		if restarted, err = v.store.(lab.FollowerEmptyRestarter).RestartFollowerEmpty(ctx, t, topo, primary); err != nil {
			return err
		}
	}
	// A's last cycles reach resource-1 only: A dies before updating resource-2.
	if err := fencedCycles(ctx, a, t.Key, cycles, r1, r1); err != nil {
		return err
	}
	if !v.lag {
		if err := ctl.Synced(ctx, topo, primary); err != nil {
			return lab.Failed("sync", err)
		}
	}
	last := r1.Stats().HighestFence
	next, err := lab.KillLaggedPrimary(ctx, t, st.(lab.Promoter), topo, primary, endLag, promotion)
	if err != nil {
		return err
	}
	if err := proveFenceState(ctx, t, v.store, next, last, v.lag); err != nil {
		return err
	}
	if restarted != nil {
		t.Input("restarted_server_leads", lab.BoolFloat(next.Name() == restarted.Name()))
	}
	b, err := fencedClient(ctx, st, topo, "B", t.Rec)
	if err != nil {
		return err
	}
	defer b.Locker.Close()
	if err := fencedCycles(ctx, b, t.Key, cycles, r1, r1, r2); err != nil {
		return err
	}
	t.Input("fence_a_last", float64(last))
	t.Input("fence_b_last", float64(r1.Stats().HighestFence))
	return nil
}

// proveFenceState reads the fence counter on the promoted node, where the store keeps
// one: with lagging followers the cut must really have lost A's last fences (else
// nothing was cut), and in the control nothing may be missing (else WAIT did not work).
func proveFenceState(ctx context.Context, t *lab.Trial, st lab.Store, next topologies.Node, last int64,
	lagged bool) error {
	fr, ok := st.(lab.FenceReader)
	if !ok {
		return nil // the fence is the store's own (a revision): the promotion is the proof
	}
	got, err := fr.Fence(ctx, next, t.Key)
	if err != nil {
		return lab.Failed("observe", fmt.Errorf("fence counter on %s: %w", next.Name(), err))
	}
	t.Input("fence_on_promoted", float64(got))
	t.Input("last_fence_before_kill", float64(last))
	switch {
	case lagged && got >= last:
		return lab.NoFault("the promoted %s holds fence %d, A's last was %d: the lag lost nothing", next.Name(), got, last)
	case !lagged && got < last:
		return lab.Failed("sync",
			fmt.Errorf("the promoted %s holds fence %d, below A's last %d, although every write was acknowledged",
				next.Name(), got, last))
	}
	t.Prove("the promoted %s holds fence %d, A's last accepted was %d", next.Name(), got, last)
	return nil
}
