package failover

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/sentinelrig"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
)

// keyedGuards are the modes a store whose primary depends on the key runs: its own
// SET NX, or the same then WAIT 1 on the key's master.
var keyedGuards = map[string]bool{"none": true, "wait1": true}

// runKeyed runs the loss modes on a store whose primary is the key's master (a Redis
// Cluster): a fresh deployment per trial, the key's master SIGKILLed delay after the
// grant while its replicas are held back by CLIENT PAUSE, and a replica promoted by the
// store itself (for a cluster, the bus after cluster-node-timeout = down-after).
func (s failoverLoss) runKeyed(ctx context.Context, env *lab.Env, rep *results.Report, st lab.KeyedFailover,
	cfg sentinelrig.Config) error {
	spec := st.Spec()
	spec.DownAfter = cfg.DownAfter
	for _, g := range cfg.Guards {
		if !keyedGuards[g.Mode] {
			continue
		}
		var variants []*failoverVariant
		for _, delay := range cfg.Delays {
			v := keyedVariant(st, spec, cfg, g, delay)
			if err := s.runVariant(ctx, env, cfg.Parallel, v, func(ctx context.Context, t *lab.Trial) error {
				return keyedTrial(ctx, env, st, spec, cfg, v, t)
			}); err != nil {
				return err
			}
			variants = append(variants, v)
			rep.Variants = append(rep.Variants, v.Result())
		}
		series := lossByDelay(g, variants)
		series.Name = st.Strategy() + " " + series.Name
		rep.Series = append(rep.Series, series)
	}
	return nil
}

func keyedVariant(st lab.KeyedFailover, spec backend.Spec, cfg sentinelrig.Config, g sentinelrig.Guard,
	delay time.Duration) *failoverVariant {
	grant := st.Strategy() + ": its own grant on the key's master"
	if g.WaitReplicas > 0 {
		grant = fmt.Sprintf("%s: SET NX PX on the key's master, then WAIT %d %d there", st.Strategy(), g.WaitReplicas,
			cfg.WaitTimeout.Milliseconds())
	}
	return &failoverVariant{Variant: lab.Variant{Variant: &results.Variant{
		Name: fmt.Sprintf("%s/%s-delay-%dms", st.Strategy(), g.Mode, delay.Milliseconds()),
		Description: fmt.Sprintf("%s; each replica of that master stops applying the stream (CLIENT PAUSE) for a drawn lag "+
			"in [0, %v] just before the grant; the master SIGKILLed %v after the grant; a replica promoted by the store (node "+
			"timeout %v)",
			grant, cfg.LagMax, delay, spec.DownAfter),
		Params: map[string]string{"strategy": st.Strategy(), "mode": g.Mode, "delay": delay.String(),
			"lag_max": cfg.LagMax.String(), "node_timeout": spec.DownAfter.String()},
		Measure: results.LostLocks,
		Claims:  keyedClaims(spec, cfg, g, delay),
	}}, guard: g, delay: delay}
}

// keyedClaims: WAIT on every replica of the key's master keeps the key on whichever is
// promoted; with no guard a kill before any drawn lag can end loses it in some trials.
func keyedClaims(spec backend.Spec, cfg sentinelrig.Config, g sentinelrig.Guard, delay time.Duration) []results.Claim {
	switch {
	case g.WaitReplicas > 0 && g.WaitReplicas >= spec.Replicas:
		return []results.Claim{results.Holds(results.LostLocks)}
	case g.WaitReplicas == 0 && delay == 0 && cfg.LagMax >= 20*time.Millisecond:
		return []results.Claim{results.Breaks(results.LostLocks)}
	}
	return nil
}

func keyedTrial(ctx context.Context, env *lab.Env, st lab.KeyedFailover, spec backend.Spec, cfg sentinelrig.Config,
	v *failoverVariant, t *lab.Trial) error {
	topo, err := env.StartTopology(ctx, spec)
	if err != nil {
		return lab.Failed("setup", err)
	}
	defer topo.Close()
	primary, err := st.PrimaryFor(ctx, topo, t.Key)
	if err != nil {
		return lab.Failed("setup", err)
	}
	replicas, err := st.ReplicasOf(ctx, topo, primary)
	if err != nil {
		return lab.Failed("setup", err)
	}
	var locker locks.Locker
	if v.guard.WaitReplicas > 0 {
		locker, err = st.WaitLocker(ctx, topo, v.guard.WaitReplicas, cfg.WaitTimeout)
	} else {
		locker, err = st.Locker(ctx, topo, false)
	}
	if err != nil {
		return lab.Failed("setup", err)
	}
	defer locker.Close()
	// A cluster client learns the slot map and the command table at its first command,
	// from any node: that must happen before a replica is paused, or the grant waits
	// out the pause (seen: pauses ending at the kill, not lag after the grant).
	if err := lab.WarmUp(ctx, locker, t.Key+":warm"); err != nil {
		return err
	}
	a := lab.NewClient("A", locker, t.Rec)
	res := lab.NewResource("resource", false, t.Rec)
	t.Input("delay_ms", lab.Millis(v.delay))
	var lags *replicaLags
	if cfg.LagMax > 0 {
		if lags, err = pauseReplicas(ctx, t, replicas, cfg.LagMax); err != nil {
			return lab.Failed("nemesis", err)
		}
		defer lags.wait()
	}
	lease, err := enterThenWait(ctx, t, a, res, v.delay)
	if err != nil {
		return err
	}
	killed := time.Now()
	if _, err := nemesis.Inject(ctx, "node-kill", nemesis.Target{Topology: topo, Nodes: []topologies.Node{primary},
		Recorder: t.Rec}); err != nil {
		return lab.Failed("nemesis", err)
	}
	pctx, cancel := context.WithTimeout(ctx, cfg.PromotionTimeout)
	next, err := st.AwaitPromotion(pctx, topo, primary)
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return lab.NoFault("no promotion away from %s within %v: %v", primary.Name(), cfg.PromotionTimeout, err)
	}
	// Failover time: from the SIGKILL to the replica reporting itself master.
	failover := time.Since(killed)
	t.Input("promotion_ms", lab.Millis(failover))
	t.Prove("%s reported itself master %v after %s was SIGKILLed", next.Name(), failover.Round(time.Millisecond),
		primary.Name())
	return afterPromotion(ctx, t, st, topo, next, killed, lags, a, res, lease)
}
