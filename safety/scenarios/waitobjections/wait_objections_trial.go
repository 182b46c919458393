package waitobjections

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/sentinelrig"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// objectionTrial: one replica (the lagging one) is paused, A's SET + WAIT n is
// granted, the objection's fault strikes at once; then the key is read on whoever is
// master and B tries the lock there.
func objectionTrial(ctx context.Context, r *sentinelrig.Run, c waitObjectionsConfig, topo topologies.Topology,
	v *objectionVariant, t *lab.Trial) error {
	st := r.Store
	primary, err := st.Primary(ctx, topo)
	if err != nil {
		return lab.Failed("setup", err)
	}
	replicas := lab.ReplicasOf(topo, primary)
	if len(replicas) != 2 {
		return lab.Failed("setup", fmt.Errorf("master %s has %d other data nodes, want 2", primary.Name(), len(replicas)))
	}
	// A re-formed deployment carries the last trial's guard: none here.
	if err := sentinelrig.ConfigureGuard(ctx, topo, sentinelrig.Guard{}); err != nil {
		return lab.Failed("setup", err)
	}
	i := t.Rand.IntN(2)
	lagging, acker := replicas[i], replicas[1-i]
	if err := favourForPromotion(ctx, topo, primary, lagging, acker); err != nil {
		return lab.Failed("setup", err)
	}
	locker,
		err := locks.AtAddrs(ctx, "wait", []string{primary.Addr()},
		locks.Options{Wait: locks.WaitOptions{Replicas: v.wait, Timeout: c.waitTimeout}})
	if err != nil {
		return lab.Failed("setup", err)
	}
	defer locker.Close()
	a := lab.NewClient("A", locker, t.Rec)
	res := lab.NewResource("resource", false, t.Rec)
	heal,
		err := nemesis.Inject(ctx, "replication-pause",
		nemesis.Target{Nodes: []topologies.Node{lagging}, Duration: c.lag, Recorder: t.Rec})
	if err != nil {
		return lab.Failed("nemesis", err)
	}
	defer heal(context.Background()) // a pause must not outlive the trial
	lease, err := a.Acquire(ctx, t.Key, time.Minute)
	if err != nil {
		return lab.FirstGrant(err)
	}
	granted := time.Now()
	if err := a.Enter(ctx, res, lease); err != nil {
		return err
	}
	if v.wait == 1 {
		if err := proveOnlyAckerHas(ctx, t, primary, lagging, acker); err != nil {
			return err
		}
	}
	var master topologies.Node
	switch v.objection.name {
	case "a1-priority":
		master, err = lab.KillPrimary(ctx, t, st, topo, primary, c.promotionTimeout)
		if err == nil && master.Addr() != lagging.Addr() {
			return lab.NoFault("sentinel promoted the acknowledging %s, not the lagging %s of replica-priority 1",
				master.Name(), lagging.Name())
		}
	case "a2-acker-dies":
		if _,
			err := nemesis.Inject(ctx, "node-kill",
			nemesis.Target{Topology: topo, Nodes: []topologies.Node{primary, acker}, Recorder: t.Rec}); err != nil {
			return lab.Failed("nemesis", err)
		}
		master, err = lab.AwaitPromotion(ctx, t, st, topo, primary, c.promotionTimeout)
	case "b-restart-empty":
		master, err = restartEmptyTogether(ctx, t, st, topo, c, primary, acker)
	default:
		return lab.Failed("setup", fmt.Errorf("objection %q has no trial", v.objection.name))
	}
	if err != nil {
		return err
	}
	t.Input("fault_to_master_ms", lab.Millis(time.Since(granted)))
	return sentinelrig.ProveKeyThenContest(ctx, t, st, topo, master, "the master "+master.Name()+" after the fault", a,
		res, lease)
}

// proveOnlyAckerHas reads the master's replication state right after a WAIT 1 grant:
// the acknowledger reached the grant's offset, the lagging replica had not.
func proveOnlyAckerHas(ctx context.Context, t *lab.Trial, master, lagging, acker topologies.Node) error {
	info, err := redisadmin.Replication(ctx, master.Addr())
	if err != nil {
		return lab.Failed("observe", fmt.Errorf("INFO replication on %s: %w", master.Name(), err))
	}
	offsets := map[string]int64{}
	for _, r := range info.Replicas {
		offsets[r.Addr] = r.Offset
	}
	ackerAt, ok1 := offsets[acker.Addr()]
	laggingAt, ok2 := offsets[lagging.Addr()]
	if !ok1 || !ok2 {
		return lab.Failed("observe",
			fmt.Errorf("master %s lists replicas %+v, want %s and %s", master.Name(), info.Replicas, acker.Addr(),
				lagging.Addr()))
	}
	if laggingAt >= info.Offset {
		return lab.NoFault(
			"the paused %s acknowledged offset %d, the master's %d after the grant: it holds the key too", lagging.Name(),
			laggingAt, info.Offset)
	}
	t.Prove("after the grant the master %s was at offset %d: acknowledger %s at %d, lagging %s at %d", master.Name(),
		info.Offset, acker.Name(), ackerAt, lagging.Name(), laggingAt)
	return nil
}

// restartEmptyTogether restarts the master and the acknowledger with no data, proves
// both came back empty, and returns the master the sentinels settle on (the restarted
// one, or a replica promoted if the restart outlasted down-after).
func restartEmptyTogether(ctx context.Context, t *lab.Trial, st lab.Failover, topo topologies.Topology,
	c waitObjectionsConfig, primary, acker topologies.Node) (topologies.Node, error) {
	if _,
		err := nemesis.Inject(ctx, "node-restart-empty",
		nemesis.Target{Topology: topo, Nodes: []topologies.Node{primary, acker}, Recorder: t.Rec}); err != nil {
		return nil, lab.Failed("nemesis", err)
	}
	for _, n := range []topologies.Node{primary, acker} {
		size, err := dbSize(ctx, n)
		if err != nil {
			return nil, lab.Failed("observe", err)
		}
		if size != 0 {
			return nil, lab.NoFault("%s holds %d keys after its restart: it did not come back empty", n.Name(), size)
		}
		t.Prove("%s restarted and holds 0 keys", n.Name())
	}
	return settledMaster(ctx, st, topo, c.lag+c.promotionTimeout)
}
