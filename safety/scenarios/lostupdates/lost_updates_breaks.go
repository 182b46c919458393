package lostupdates

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/history"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/sentinelrig"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// The lock breakers of lost-updates: each runs one trial's lock service and breaks it
// in the middle of A's change, with the evidence that it broke.

// breakRig is one break on one strategy for a run: its servers, and each trial's
// broken lock on them.
type breakRig interface {
	// trial runs fn on this trial's lock service, made ready for the trial.
	trial(ctx context.Context, t *lab.Trial, fn func(*brokenLock) error) error
	// close stops the rig's servers and says, if anything, what to note.
	close() string
}

// brokenLock is one trial's lock service and how it is broken. Every step is a no-op
// unless the break sets it.
type brokenLock struct {
	store lab.Store
	topo  topologies.Topology
	ttl   time.Duration // the lease A asks for
	ttlB  time.Duration // and B
	until string        // what bounds B's attempts
	// lag runs before A's first lease, hold before its second.
	lag, hold func(ctx context.Context) error
	// breakLock runs in A's change just before its write; it returns when B's
	// attempts must have succeeded.
	breakLock func(ctx context.Context, a *lab.Client, leaseA locks.Lease) (time.Time, error)
	// proveGrant checks B's grant against A's lease; proveResumed runs once A goes on.
	proveGrant   func(leaseA locks.Lease, grantedAt time.Time) error
	proveResumed func(leaseA locks.Lease) error
}

// newBrokenLock is a lock with nothing broken yet; B's grant must come while A's
// lease runs (the break, not the expiry, hands B the lock).
func newBrokenLock(st lab.Store, topo topologies.Topology, ttl time.Duration) *brokenLock {
	noop := func(context.Context) error { return nil }
	return &brokenLock{store: st, topo: topo, ttl: ttl, ttlB: ttl, until: "the end of A's lease", lag: noop, hold: noop,
		proveGrant: func(leaseA locks.Lease, grantedAt time.Time) error {
			if !grantedAt.Before(leaseA.ValidUntil) {
				return lab.Failed("timing", fmt.Errorf("B was granted %v after A's lease ended: the expiry handed it the lock, "+
					"not the fault (the %v lease is too short for this machine)",
					grantedAt.Sub(leaseA.ValidUntil).Round(time.Millisecond), ttl))
			}
			return nil
		},
		proveResumed: func(locks.Lease) error { return nil },
	}
}

func newBreakRig(ctx context.Context, env *lab.Env, brk, strategy string, cfg lostUpdatesConfig) (breakRig, error) {
	switch brk {
	case "pause":
		return newPauseRig(ctx, env, strategy, cfg)
	case "failover":
		st, err := lab.StoreFor(strategy)
		if err != nil {
			return nil, err
		}
		if lab.IsKeyedFailover(st) { // the key's own master fails over, as in a Redis Cluster
			return newKeyedFailoverRig(env, st)
		}
		return newFailoverRig(env, strategy)
	case "redlock-restart":
		return newRedlockRig(ctx, env, strategy, cfg)
	case "clock-jump":
		st, err := lab.StoreFor(strategy)
		if err != nil {
			return nil, err
		}
		return &clockRig{env: env, store: st, ttl: max(cfg.ttl, time.Second)}, nil
	}
	return nil, fmt.Errorf("lost-updates: no break %s", brk)
}

// pgAdvisory is the PostgreSQL strategy the pause break runs on.
const pgAdvisory = "pg-advisory"

// pgLockStore is pg-advisory on the run's PostgreSQL server, beside the account rows.
// It is not registered as a store: only lost-updates runs it, through the locks
// registry (backends/postgres/pglock registers the strategy).
type pgLockStore struct{}

func (pgLockStore) Strategy() string                           { return pgAdvisory }
func (pgLockStore) Spec() backend.Spec                         { return backend.Spec{Kind: topologies.Postgres} }
func (pgLockStore) GrantedTTL(ttl time.Duration) time.Duration { return ttl }
func (pgLockStore) FenceSource() string                        { return "nextval of pglock's lockbench_fence sequence" }

// Locker ignores fenced: every pg-advisory lease has its sequence's fence.
func (pgLockStore) Locker(ctx context.Context, topo topologies.Topology, _ bool) (locks.Locker, error) {
	return locks.ForTopology(ctx, pgAdvisory, topo, locks.Options{})
}

// pauseRig: A stops (client-pause) in the middle of its change for pause-factor x the
// granted lease. On single and etcd the server expires the lease; pg-advisory has no
// TTL on the server, and its lease's end is a timer in A's locker, which gives the
// lock back at ValidUntil: the client-pause stops A's code, not that timer (a holder
// stuck in a slow call while its lock library runs on). A whole-process stop
// (SIGSTOP) would stop the timer too, and A's session would keep the lock.
type pauseRig struct {
	store  lab.Store
	topo   topologies.Topology
	owned  bool // started for this rig (pg-advisory's is the run's server)
	ttl    time.Duration
	factor float64
}

func newPauseRig(ctx context.Context, env *lab.Env, strategy string, cfg lostUpdatesConfig) (*pauseRig, error) {
	r := &pauseRig{ttl: cfg.ttl, factor: cfg.pauseFactor}
	st, err := storeOf(strategy)
	if err != nil {
		return nil, err
	}
	if st.Spec().Kind == cfg.pg.Spec().Kind { // the account's own server holds the lock too
		r.store, r.topo = st, cfg.pg
		return r, nil
	}
	topo, err := env.StartTopology(ctx, st.Spec())
	if err != nil {
		return nil, err
	}
	r.store, r.topo, r.owned = st, topo, true
	return r, nil
}

func (r *pauseRig) close() string {
	if r.owned {
		r.topo.Close()
	}
	return ""
}

func (r *pauseRig) trial(ctx context.Context, t *lab.Trial, fn func(*brokenLock) error) error {
	granted := r.store.GrantedTTL(r.ttl)
	pause := time.Duration(r.factor * float64(granted))
	lk := newBrokenLock(r.store, r.topo, r.ttl)
	lk.ttlB, lk.until = 10*granted, "the end of A's pause"
	heal := nemesis.NoHeal
	defer func() { heal(context.Background()) }()
	var stopped time.Time
	lk.breakLock = func(ctx context.Context, a *lab.Client, _ locks.Lease) (time.Time, error) {
		h, err := nemesis.Inject(ctx, "client-pause", nemesis.Target{Client: a, Duration: pause, Recorder: t.Rec})
		if err != nil {
			return time.Time{}, lab.Failed("nemesis", err)
		}
		heal, stopped = h, time.Now()
		t.Input("pause_ms", lab.Millis(pause))
		return stopped.Add(pause), nil
	}
	// B is granted only once the lease A was granted has run out, while A is stopped.
	lk.proveGrant = func(leaseA locks.Lease, grantedAt time.Time) error {
		if grantedAt.Before(leaseA.ValidUntil) {
			return lab.Failed("timing",
				fmt.Errorf("B was granted %v before A's lease ended: not the pause",
					leaseA.ValidUntil.Sub(grantedAt).Round(time.Millisecond)))
		}
		t.Input("b_granted_after_lease_ms", lab.Millis(grantedAt.Sub(leaseA.ValidUntil)))
		return nil
	}
	lk.proveResumed = func(leaseA locks.Lease) error {
		away, left := time.Since(stopped), leaseA.ValidUntil.Sub(stopped)
		t.Input("away_ms", lab.Millis(away))
		if away <= left {
			return lab.NoFault("A was stopped %v, within the %v left of its lease", away.Round(time.Millisecond),
				left.Round(time.Millisecond))
		}
		t.Prove("A stopped %v in the middle of its change, %v past its lease (granted %v)", away.Round(time.Millisecond),
			(away - left).Round(time.Millisecond), leaseA.ValidUntil.Sub(leaseA.Start).Round(time.Millisecond))
		return nil
	}
	return fn(lk)
}

// failoverStore is a lock service a failover breaks: its primary for the key (a
// sentinel master, a cluster's slot master), a replica that can lag and be promoted,
// the key and the fence counter read on the promoted one.
type failoverStore interface {
	lab.Store
	lab.Promoter
	lab.KeyReader
	lab.ReplicationControl
	lab.FenceReader
}

// failoverRig: the strategy's sentinel deployments borrowed from failover-loss's re-forming pool.
// The replicas lag (cut off: the sentinel adapter's Lag) from before A's first lease, so
// that neither of A's leases nor their INCR fences reach them; the master is killed in
// the middle of A's change and a replica is promoted; B locks on it.
type failoverRig struct {
	run   *sentinelrig.Run
	store failoverStore
	use   sentinelrig.DeploymentUse
}

// failoverLease outlasts the promotion (seconds): the failover, not the expiry, hands
// B the lock.
const failoverLease = 10 * time.Second

// failoverPromotion bounds the wait for a promotion, which starts once the replicas
// resume.
const failoverPromotion = 15 * time.Second

func newFailoverRig(env *lab.Env, strategy string) (*failoverRig, error) {
	run,
		err := sentinelrig.NewRun(env,
		sentinelrig.Config{Strategy: strategy, DownAfter: 400 * time.Millisecond, FailoverTimeout: 1500 * time.Millisecond,
			Reuse: true, Deployments: 2, ReformTimeout: 15 * time.Second})
	if err != nil {
		return nil, err
	}
	st, ok := run.Store.(failoverStore)
	if !ok {
		run.Close()
		return nil, fmt.Errorf("the sentinel store cannot make its replicas lag or read its fence")
	}
	return &failoverRig{run: run, store: st}, nil
}

func (r *failoverRig) close() string {
	r.run.Close()
	return r.use.Note()
}

func (r *failoverRig) trial(ctx context.Context, t *lab.Trial, fn func(*brokenLock) error) error {
	return sentinelrig.Borrow(ctx, r.run.LossDeployments, &r.use, func(topo topologies.Topology) error {
		return breakByFailover(ctx, t, r.store, topo, sentinelrig.SecondClientPatience, fn)
	})
}

// keyedFailoverRig: a fresh deployment per trial whose key master fails over on its own
// (a Redis Cluster), broken as failoverRig breaks
// Sentinel: the key master's replica lags (the store adapter's Lag) from before A's
// first lease, the master is killed in the middle of A's change, and the bus promotes
// the replica after cluster-node-timeout; B locks on it.
type keyedFailoverRig struct {
	env   *lab.Env
	store failoverStore
}

func newKeyedFailoverRig(env *lab.Env, st lab.Store) (*keyedFailoverRig, error) {
	fs, ok := st.(failoverStore)
	if !ok {
		return nil, fmt.Errorf(
			"lost-updates: the failover break cannot run on %s (its store has no replica to lag, promote and read)",
			st.Strategy())
	}
	return &keyedFailoverRig{env: env, store: fs}, nil
}

func (r *keyedFailoverRig) close() string { return "" }

// clusterPatience is how long B may take on the promoted master: a cluster client
// learns the new slot map only once its commands to the dead master have failed.
const clusterPatience = 10 * time.Second

func (r *keyedFailoverRig) trial(ctx context.Context, t *lab.Trial, fn func(*brokenLock) error) error {
	topo, err := r.env.StartTopology(ctx, r.store.Spec())
	if err != nil {
		return lab.Failed("setup", err)
	}
	defer topo.Close()
	return breakByFailover(ctx, t, r.store, topo, clusterPatience, fn)
}

// breakByFailover runs fn on a lock that the key's primary's death breaks: its replicas
// lag from before A's first lease; in the middle of A's change the primary is killed,
// and the trial goes on only once the promoted replica is proven to lack A's lease (and
// A's fences, where the lock has them); B then has patience to be granted.
func breakByFailover(ctx context.Context, t *lab.Trial, st failoverStore, topo topologies.Topology,
	patience time.Duration, fn func(*brokenLock) error) error {
	primary, err := lab.PrimaryOf(ctx, st, topo, t.Key)
	if err != nil {
		return lab.Failed("setup", err)
	}
	lk := newBrokenLock(st, topo, failoverLease)
	endLag := nemesis.NoHeal
	// A replica still cut off must not go back to the pool so.
	defer func() { _ = endLag(context.Background()) }()
	var lagged time.Time
	lk.lag = func(ctx context.Context) error {
		heal, err := st.Lag(ctx, t, topo, primary)
		if err != nil {
			return err
		}
		endLag, lagged = heal, time.Now()
		return nil
	}
	lk.until = "the end of B's patience on the promoted master"
	lk.breakLock = func(ctx context.Context, _ *lab.Client, leaseA locks.Lease) (time.Time, error) {
		t.Input("kill_after_lag_ms", lab.Millis(time.Since(lagged)))
		next, err := lab.KillLaggedPrimary(ctx, t, st, topo, primary, endLag, failoverPromotion)
		if err != nil {
			return time.Time{}, err
		}
		state, err := lab.ObserveKey(ctx, t, st, topo, next, t.Key)
		if err != nil {
			return time.Time{}, err
		}
		if state.Present && state.Value == leaseA.Token {
			return time.Time{}, lab.NoFault("the promoted %s holds A's lease: the lag did not hold", next.Name())
		}
		t.Prove("read %s on the promoted %s: %s", t.Key, next.Name(), sentinelrig.DescribeKey(state, leaseA.Token))
		if leaseA.HasFence { // the INCR counter: it must have lost A's fences
			got, err := st.Fence(ctx, next, t.Key)
			if err != nil {
				return time.Time{}, lab.Failed("observe", fmt.Errorf("fence counter on %s: %w", next.Name(), err))
			}
			t.Input("fence_on_promoted", float64(got))
			if got >= leaseA.Fence {
				return time.Time{},
					lab.NoFault("the promoted %s holds fence %d, A's lease had %d: the lag lost no fence", next.Name(), got,
						leaseA.Fence)
			}
			t.Prove("the promoted %s holds fence %d, below A's %d: B's INCR reissues a fence", next.Name(), got, leaseA.Fence)
		}
		return time.Now().Add(patience), nil
	}
	return fn(lk)
}

// redlockRig: A holds a Redlock on nodes 0-2 of 5 (3 and 4 are down when it locks);
// in the middle of its change node 2 restarts with no data and 3, 4 come back empty:
// B finds three free nodes, a majority (as in redlock-restart).
type redlockRig struct {
	store lab.Store
	topo  topologies.Topology
	ttl   time.Duration
}

// redlockNodes are the masters the rig needs: 0-2 hold A's lock, 3 and 4 are down.
const redlockNodes = 5

// redlockLease leaves time for three node restarts (tens of ms each) in A's lease.
const redlockLease = 2 * time.Second

func newRedlockRig(ctx context.Context, env *lab.Env, strategy string, cfg lostUpdatesConfig) (*redlockRig, error) {
	st, err := lab.StoreFor(strategy)
	if err != nil {
		return nil, err
	}
	topo, err := env.StartTopology(ctx, st.Spec())
	if err != nil {
		return nil, err
	}
	return &redlockRig{store: st, topo: topo, ttl: max(cfg.ttl, redlockLease)}, nil
}

func (r *redlockRig) close() string { r.topo.Close(); return "" }

func (r *redlockRig) trial(ctx context.Context, t *lab.Trial, fn func(*brokenLock) error) error {
	nodes := r.topo.Masters()
	for _, n := range nodes { // a previous trial's victims come back first
		if !n.Running() {
			if err := n.Restart(ctx, topologies.RestartEmpty); err != nil {
				return lab.Failed("setup", err)
			}
		}
	}
	victim := nodes[2]
	var before string
	lk := newBrokenLock(r.store, r.topo, r.ttl)
	lk.hold = func(ctx context.Context) error {
		var err error
		if before, err = redisadmin.RunID(ctx, victim.Addr()); err != nil {
			return err
		}
		_, err = nemesis.Inject(ctx, "node-kill", nemesis.Target{Nodes: nodes[3:], Recorder: t.Rec})
		return err
	}
	lk.breakLock = func(ctx context.Context, _ *lab.Client, leaseA locks.Lease) (time.Time, error) {
		if _,
			err := nemesis.Inject(ctx, "node-restart-empty", nemesis.Target{Nodes: nodes[2:], Recorder: t.Rec}); err != nil {
			return time.Time{}, lab.Failed("nemesis", err)
		}
		if err := lab.ProveRestart(ctx, t, victim, before, true); err != nil {
			return time.Time{}, err
		}
		line, err := lab.ProvedEmpty(ctx, r.topo, nodes[3:], t.Key)
		if err != nil {
			return time.Time{}, err
		}
		t.Prove("%s", line)
		return leaseA.ValidUntil, nil
	}
	return fn(lk)
}

// clockRig: a single master whose clock (libfaketime, or the embedded node's model)
// jumps forward twice the lease in the middle of A's change: A's key expires at once
// on the master while A's lease still runs. Each trial has a fresh master, so that no
// offset carries over.
type clockRig struct {
	env   *lab.Env
	store lab.Store
	ttl   time.Duration
}

// breakEvent is the clock event fired in the middle of A's change.
const breakEvent = "break"

func (r *clockRig) close() string { return "" }

func (r *clockRig) trial(ctx context.Context, t *lab.Trial, fn func(*brokenLock) error) error {
	jump := 2 * r.ttl
	model := clocks.Model{Jumps: []clocks.Jump{{After: breakEvent, By: jump}}}
	st := r.store
	spec := st.Spec()
	spec.Clocks = map[string]clocks.Model{lab.NodeName(0): model}
	topo, err := r.env.StartTopology(ctx, spec)
	if err != nil {
		return lab.Failed("setup", err)
	}
	defer topo.Close()
	node := topo.Masters()[0]
	lk := newBrokenLock(st, topo, r.ttl)
	lk.breakLock = func(ctx context.Context, _ *lab.Client, leaseA locks.Lease) (time.Time, error) {
		firedAt := time.Now()
		topologies.FireClockEvent(topo, breakEvent)
		t.Rec.Record(history.Event{Client: "nemesis", Kind: history.FaultInjected, Detail: "clock event " + breakEvent +
			": " + topo.Spec().ClockSummary()})
		m, err := lab.ExpectClock(node, model, map[string]time.Time{breakEvent: firedAt})
		if err != nil {
			return time.Time{}, err
		}
		reading, line, err := lab.AwaitOffset(ctx, m)
		if err != nil {
			return time.Time{}, err
		}
		if reading.Received.After(leaseA.ValidUntil) {
			return time.Time{}, lab.NoFault("%s showed its jump only after A's lease ended", node.Name())
		}
		t.Prove("%s %v after the jump, with %v left of A's lease", line,
			reading.Received.Sub(firedAt).Round(10*time.Microsecond),
			leaseA.ValidUntil.Sub(reading.Received).Round(time.Millisecond))
		return leaseA.ValidUntil, nil
	}
	return fn(lk)
}
