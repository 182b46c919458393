package failover

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/sentinelrig"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/topologies"
)

func lossTrial(ctx context.Context, r *sentinelrig.Run, topo topologies.Topology, v *failoverVariant,
	t *lab.Trial) (err error) {
	st := r.Store
	primary, err := st.Primary(ctx, topo)
	if err != nil {
		return lab.Failed("setup", err)
	}
	replicas := lab.ReplicasOf(topo, primary)
	if err := sentinelrig.ConfigureGuard(ctx, topo, v.guard); err != nil {
		return lab.Failed("setup", err)
	}
	var locker locks.Locker
	switch {
	case v.guard.WaitReplicas > 0:
		locker,
			err = locks.AtAddrs(ctx, "wait", []string{primary.Addr()},
			locks.Options{Wait: locks.WaitOptions{Replicas: v.guard.WaitReplicas, Timeout: r.WaitTimeout}})
	case v.guard.WaitAOF != "":
		locker, err = locks.AtAddrs(ctx, v.guard.WaitAOF, []string{primary.Addr()},
			locks.Options{Wait: locks.WaitOptions{Timeout: r.WaitTimeout}})
	default:
		locker, err = st.Locker(ctx, topo, false)
	}
	if err != nil {
		return lab.Failed("setup", err)
	}
	defer locker.Close()
	a := lab.NewClient("A", locker, t.Rec)
	res := lab.NewResource("resource", false, t.Rec)
	t.Input("delay_ms", lab.Millis(v.delay))

	healCut := nemesis.NoHeal
	var lags *replicaLags
	if r.LinkKill {
		if healCut, err = lab.CutReplicas(ctx, t, primary, replicas); err != nil {
			return lab.Failed("nemesis", err)
		}
		defer healCut(context.Background()) // stopped replicas must not outlive the trial
	} else if r.LagMax > 0 {
		if lags, err = pauseReplicas(ctx, t, replicas, r.LagMax); err != nil {
			return lab.Failed("nemesis", err)
		}
		defer lags.wait()
	}
	lease, err := enterThenWait(ctx, t, a, res, v.delay)
	if err != nil {
		return err
	}
	if r.LinkKill {
		if err := sentinelrig.ProveCut(ctx, t, primary); err != nil {
			return err
		}
	}
	killed := time.Now()
	var next topologies.Node
	if r.LinkKill {
		// The stopped replicas resume only once the master is dead: they reconnect
		// to nothing, and a stopped replica could not be promoted.
		next, err = lab.KillLaggedPrimary(ctx, t, st, topo, primary, healCut, r.PromotionTimeout)
	} else if v.guard.Planned {
		var demoted func() error
		next, demoted, err = plannedFailover(ctx, t, st, topo, primary, r)
		if err == nil {
			defer func() { err = errors.Join(err, demoted()) }()
		}
	} else {
		next, err = lab.KillPrimary(ctx, t, st, topo, primary, r.PromotionTimeout)
	}
	if err != nil {
		return err
	}
	t.Input("promotion_ms", lab.Millis(time.Since(killed)))
	return afterPromotion(ctx, t, st, topo, next, killed, lags, a, res, lease)
}

// plannedFailover asks the sentinels to hand primary's role to a replica, as host
// patching does, and waits for the promotion; a sentinel that finds no replica fit
// (NOGOODSLAVE) produced no fault. From the request on, primary is probed until it
// refuses a write as a replica: demoted waits for that and records the window.
func plannedFailover(ctx context.Context, t *lab.Trial, st lab.Promoter, topo topologies.Topology,
	primary topologies.Node, r *sentinelrig.Run) (next topologies.Node, demoted func() error, err error) {
	if _, err := nemesis.Inject(ctx, "sentinel-failover", nemesis.Target{Topology: topo, Recorder: t.Rec}); err != nil {
		if refusedFailover(err) {
			return nil, nil, lab.NoFault("the sentinels started no failover: %v", err)
		}
		return nil, nil, lab.Failed("nemesis", err)
	}
	demoted = watchDemotion(ctx, t, primary, r.ZombieWatch)
	next, err = lab.AwaitPromotionAfter(ctx, t, st, topo, primary, r.PromotionTimeout, "SENTINEL FAILOVER, "+
		primary.Name()+" still running")
	if err != nil {
		return nil, nil, errors.Join(err, demoted())
	}
	return next, demoted, nil
}

// watchDemotion probes old from now until it answers as a replica or watch ends, in
// the background; the function returned waits for it and records the probes.
func watchDemotion(ctx context.Context, t *lab.Trial, old topologies.Node, watch time.Duration) func() error {
	probe := newZombieProbe(old, t)
	done := make(chan error, 1)
	go func() {
		start := time.Now()
		err := probe.write(ctx)
		for err == nil && !probe.demoted && time.Since(start) < watch {
			if err = lab.Sleep(ctx, zombieProbeInterval); err == nil {
				err = probe.write(ctx)
			}
		}
		done <- err
	}()
	return func() error {
		err := <-done
		probe.close()
		t.Input("probes", float64(probe.sent))
		t.Input("probes_accepted", float64(probe.accepted))
		if err == nil && !probe.demoted { // the window outlasted the watch: a lower bound
			t.Input("window_open_at_watch", 1)
		}
		return err
	}
}

// refusedFailover: the sentinel answered but would not fail over now (no replica fit,
// or a failover already in progress): no fault, as opposed to a failed request.
func refusedFailover(err error) bool {
	return strings.Contains(err.Error(), "NOGOODSLAVE") || strings.Contains(err.Error(), "INPROG")
}

// replicaLags are the drawn pauses of one trial's replicas and when each really
// ended: a PING blocks until the server lifts the pause, which may be later than asked.
type replicaLags struct {
	replicas []topologies.Node
	lags     []time.Duration
	ends     []time.Time
	done     sync.WaitGroup
	errs     []error
}

func pauseReplicas(ctx context.Context, t *lab.Trial, replicas []topologies.Node, lagMax time.Duration) (*replicaLags,
	error) {
	l := &replicaLags{replicas: replicas, lags: make([]time.Duration, len(replicas)),
		ends: make([]time.Time, len(replicas)), errs: make([]error, len(replicas))}
	for i, r := range replicas {
		l.lags[i] = time.Duration(t.Rand.Int64N(lagMax.Milliseconds()+1)) * time.Millisecond
		t.Input(fmt.Sprintf("lag_replica%d_ms", i), lab.Millis(l.lags[i]))
		if l.lags[i] == 0 {
			l.ends[i] = time.Now()
			continue
		}
		if _,
			err := nemesis.Inject(ctx, "replication-pause",
			nemesis.Target{Nodes: []topologies.Node{r}, Duration: l.lags[i], Recorder: t.Rec}); err != nil {
			l.wait()
			return nil, err
		}
		l.done.Add(1)
		go func(i int, addr string) {
			defer l.done.Done()
			c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, Protocol: 2, DisableIdentity: true,
				ReadTimeout: lagMax + 2*time.Second})
			defer c.Close()
			l.errs[i] = c.Ping(ctx).Err()
			l.ends[i] = time.Now()
		}(i, r.Addr())
	}
	t.Input("lag_min_ms", lab.Millis(slices.Min(l.lags)))
	t.Input("lag_max_ms", lab.Millis(slices.Max(l.lags)))
	return l, nil
}

func (l *replicaLags) wait() { l.done.Wait() }

// record waits for every pause to end and notes each end against the kill.
func (l *replicaLags) record(ctx context.Context, t *lab.Trial, killed time.Time, promoted topologies.Node) error {
	l.wait()
	for i, r := range l.replicas {
		if l.errs[i] != nil {
			return lab.Failed("observe", fmt.Errorf("PING %s to see its pause end: %w", r.Name(), l.errs[i]))
		}
		margin := lab.Millis(l.ends[i].Sub(killed))
		t.Input(fmt.Sprintf("pause_end_after_kill_replica%d_ms", i), margin)
		if r.Addr() == promoted.Addr() {
			t.Input("lag_promoted_ms", lab.Millis(l.lags[i]))
			t.Input("pause_end_after_kill_promoted_ms", margin)
		}
	}
	return ctx.Err()
}

// afterPromotion is what every failover-loss trial does once a replica took over: the
// replicas' lag recorded, the key read on the promoted node (the proof), and B's try
// there.
func afterPromotion(ctx context.Context, t *lab.Trial, kr lab.KeyReader, topo topologies.Topology,
	next topologies.Node, killed time.Time, lags *replicaLags, a *lab.Client, res *lab.Resource, lease locks.Lease) error {
	if lags != nil {
		if err := lags.record(ctx, t, killed, next); err != nil {
			return err
		}
	}
	return sentinelrig.ProveKeyThenContest(ctx, t, kr, topo, next, "the promoted "+next.Name(), a, res, lease)
}

// enterThenWait has A take the lock for a minute, enter the resource and stay there
// delay: the grant the failover's kill is then timed against.
func enterThenWait(ctx context.Context, t *lab.Trial, a *lab.Client, res *lab.Resource,
	delay time.Duration) (locks.Lease, error) {
	lease, err := a.Acquire(ctx, t.Key, time.Minute)
	if err != nil {
		return lease, lab.FirstGrant(err)
	}
	if err := a.Enter(ctx, res, lease); err != nil {
		return lease, err
	}
	return lease, lab.Sleep(ctx, delay)
}
