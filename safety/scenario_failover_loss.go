package safety

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"sync"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
)

// failoverLoss: on a sentinel deployment, the master dies delay after granting a lock
// whose SET had not yet been applied by the replicas (a replication lag injected with
// CLIENT PAUSE on each replica, drawn per trial). The promoted replica lacks the key:
// the lock is lost and a second client takes it. WAIT 1 / WAIT 2 / min-replicas-to-write
// change the odds; the zombie mode pauses the master instead and counts how long the
// old master keeps taking writes after it comes back.
type failoverLoss struct{}

func init() { Register(failoverLoss{}) }

func (failoverLoss) Name() string { return "failover-loss" }
func (failoverLoss) Summary() string {
	return "sentinel master dies delay after a grant: the promoted replica may lack the lock (loss probability vs delay and lag; WAIT 1, WAIT 2, min-replicas-to-write; zombie master)"
}

var failoverModes = []string{"none", "wait1", "wait2", "min-replicas", "zombie"}

func (failoverLoss) Params() []Param {
	return []Param{
		{"modes", "none,wait1,wait2,min-replicas,zombie", "what guards the grant: none (sentinel SET NX), wait1, wait2 (SET then WAIT n), min-replicas (min-replicas-to-write 1), zombie (pause the master, resume it after failover)"},
		{"delays", "0ms,10ms,25ms,50ms,100ms", "time from grant to SIGKILL of the master"},
		{"lag-max", "50ms", "each replica stops applying the stream (CLIENT PAUSE) for a time drawn uniformly in [0, lag-max] around the grant; 0 means natural lag only"},
		{"cut", "pause", "how the replicas miss the grant: pause (CLIENT PAUSE each for its drawn lag) or link-kill (SIGSTOP the replicas and CLIENT KILL TYPE replica on the master before the grant; SIGCONT after the kill: every grant is missed)"},
		{"wait-timeout", "200ms", "WAIT's timeout in the wait modes: fewer acks by then refuse the grant"},
		{"down-after", "500ms", "sentinel down-after-milliseconds"},
		{"promotion-timeout", "15s", "how long to wait for a new master before counting the trial as fault-not-produced"},
	}
}

type failoverConfig struct {
	modes                    []string
	cut                      string
	delays                   []time.Duration
	lagMax, waitTimeout      time.Duration
	downAfter, promotionWait time.Duration
}

func (s failoverLoss) config(p Params) (failoverConfig, error) {
	var c failoverConfig
	var err error
	if c.modes, err = p.Strings("modes", []string{"none", "wait1", "wait2", "min-replicas", "zombie"}, failoverModes); err != nil {
		return c, err
	}
	cuts, err := p.Strings("cut", []string{"pause"}, []string{"pause", "link-kill"})
	if err != nil {
		return c, err
	}
	if len(cuts) != 1 {
		return c, &ParamError{"cut", p["cut"], "one of pause, link-kill"}
	}
	c.cut = cuts[0]
	if c.delays, err = p.Durations("delays", []time.Duration{0, 10 * time.Millisecond, 25 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond}); err != nil {
		return c, err
	}
	if c.lagMax, err = p.Duration("lag-max", 50*time.Millisecond); err != nil {
		return c, err
	}
	if c.waitTimeout, err = p.Duration("wait-timeout", 200*time.Millisecond); err != nil {
		return c, err
	}
	if c.waitTimeout <= 0 {
		return c, &ParamError{"wait-timeout", p["wait-timeout"], "a duration > 0 (WAIT 0 blocks forever)"}
	}
	if c.downAfter, err = p.Duration("down-after", 500*time.Millisecond); err != nil {
		return c, err
	}
	if c.downAfter < 100*time.Millisecond {
		return c, &ParamError{"down-after", p["down-after"], "a duration >= 100ms"}
	}
	if c.promotionWait, err = p.Duration("promotion-timeout", 15*time.Second); err != nil {
		return c, err
	}
	if c.promotionWait <= 0 {
		return c, &ParamError{"promotion-timeout", p["promotion-timeout"], "a duration > 0"}
	}
	return c, nil
}

func (s failoverLoss) Run(ctx context.Context, env *Env) (*Report, error) {
	cfg, err := s.config(env.Params)
	if err != nil {
		return nil, err
	}
	rep := &Report{Scenario: s.Name(), Summary: s.Summary(), Seed: env.Seed, TrialsPerVariant: env.Trials, Params: env.Params}
	for _, mode := range cfg.modes {
		if mode == "zombie" {
			v := &Variant{Name: "zombie", Expect: ExpectBreaks, Measure: MeasureViolations, Params: map[string]string{"mode": mode},
				Description: "SIGSTOP the master until a replica is promoted; B locks on the new master; SIGCONT the old one; A, still pointed at it, locks there too",
				WindowIs:    "from the old master's resume to its last accepted write (it accepts until sentinel turns it into a replica)"}
			for trial := 0; trial < env.Trials; trial++ {
				if err := s.zombieTrial(ctx, env, cfg, v, trial); err != nil {
					return nil, fmt.Errorf("zombie trial %d: %w", trial, err)
				}
			}
			rep.Variants = append(rep.Variants, v)
			continue
		}
		series := Series{Name: "mode=" + mode, X: "delay from grant to master kill (ms)", Y: "probability the lock was lost"}
		for _, delay := range cfg.delays {
			v := &Variant{Name: fmt.Sprintf("%s-delay-%dms", mode, delay.Milliseconds()), Measure: MeasureLostLocks,
				Params:      map[string]string{"mode": mode, "delay": delay.String(), "lag_max": cfg.lagMax.String(), "cut": cfg.cut},
				Description: failoverDescription(mode, delay, cfg)}
			v.Expect = failoverExpectation(mode, delay, cfg)
			for trial := 0; trial < env.Trials; trial++ {
				if err := s.lossTrial(ctx, env, cfg, mode, delay, v, trial); err != nil {
					return nil, fmt.Errorf("%s trial %d: %w", v.Name, trial, err)
				}
			}
			lost := 0
			for _, o := range v.PerTrial {
				if o.Outcome == "judged" && o.LostLocks > 0 {
					lost++
				}
			}
			if v.Judged > 0 {
				series.Points = append(series.Points, Point{X: float64(delay.Milliseconds()), Y: float64(lost) / float64(v.Judged), N: v.Judged})
			}
			rep.Variants = append(rep.Variants, v)
		}
		rep.Series = append(rep.Series, series)
		// Under WAIT the grant itself waits out the lag, so the margin means nothing there.
		if cfg.cut == "pause" && cfg.lagMax > 0 && (mode == "none" || mode == "min-replicas") {
			rep.Series = append(rep.Series, lagMarginSeries(mode, rep.Variants))
		}
	}
	return rep, nil
}

// lagMarginSeries buckets a mode's judged trials by when the promoted replica really
// resumed applying the stream, relative to the master's kill (10 ms buckets): the
// lock should be lost exactly when that margin is positive.
func lagMarginSeries(mode string, variants []*Variant) Series {
	type bucket struct{ lost, n int }
	buckets := map[int]*bucket{}
	for _, v := range variants {
		if v.Params["mode"] != mode {
			continue
		}
		for _, o := range v.PerTrial {
			margin, ok := o.Inputs["pause_end_after_kill_promoted_ms"]
			if o.Outcome != "judged" || !ok {
				continue
			}
			k := int(math.Floor(margin / 10))
			if buckets[k] == nil {
				buckets[k] = &bucket{}
			}
			buckets[k].n++
			if o.LostLocks > 0 {
				buckets[k].lost++
			}
		}
	}
	keys := make([]int, 0, len(buckets))
	for k := range buckets {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	s := Series{Name: "mode=" + mode + " by lag", X: "promoted replica's measured pause end minus master kill (ms, 10 ms buckets, lower edge)", Y: "probability the lock was lost"}
	for _, k := range keys {
		b := buckets[k]
		s.Points = append(s.Points, Point{X: float64(k * 10), Y: float64(b.lost) / float64(b.n), N: b.n})
	}
	return s
}

func failoverDescription(mode string, delay time.Duration, cfg failoverConfig) string {
	guard := map[string]string{
		"none":         "SET NX PX through sentinel",
		"wait1":        fmt.Sprintf("SET NX PX then WAIT 1 %d", cfg.waitTimeout.Milliseconds()),
		"wait2":        fmt.Sprintf("SET NX PX then WAIT 2 %d", cfg.waitTimeout.Milliseconds()),
		"min-replicas": "SET NX PX with min-replicas-to-write 1 (max-lag 10 s)",
	}[mode]
	if cfg.cut == "link-kill" {
		return fmt.Sprintf("%s; replicas SIGSTOPped and their links killed before the grant; master SIGKILLed %v after it", guard, delay)
	}
	return fmt.Sprintf("%s; each replica paused (CLIENT PAUSE) for up to %v just before the grant; master SIGKILLed %v after the grant", guard, cfg.lagMax, delay)
}

// failoverExpectation: with no guard and a kill before any lag can end, the lock is
// lost; WAIT 2 keeps it on every replica; everything else is a point of the sweep.
func failoverExpectation(mode string, delay time.Duration, cfg failoverConfig) Expectation {
	switch {
	case mode == "wait2":
		return ExpectHolds
	case mode == "none" && cfg.cut == "link-kill":
		return ExpectBreaks
	case (mode == "none" || mode == "min-replicas") && delay == 0 && cfg.lagMax >= 20*time.Millisecond:
		return ExpectBreaks
	}
	return ExpectMeasured
}

func sentinelSpec(cfg failoverConfig, mode string) topologies.Spec {
	spec := topologies.Spec{Kind: topologies.Sentinel, Replicas: 2, DownAfter: cfg.downAfter, FailoverTimeout: 3 * time.Second}
	if mode == "min-replicas" {
		spec.ExtraConfig = []string{"min-replicas-to-write 1", "min-replicas-max-lag 10"}
	}
	return spec
}

func (s failoverLoss) lossTrial(ctx context.Context, env *Env, cfg failoverConfig, mode string, delay time.Duration, v *Variant, trial int) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	topo, err := env.start(ctx, sentinelSpec(cfg, mode))
	if err != nil {
		return err
	}
	defer topo.Close()
	master := topo.Masters()[0]
	rec := NewRecorder()
	res := NewResource("resource", false, rec)
	key := fmt.Sprintf("failover-loss:%s:%d:%d", v.Name, env.Seed, trial)

	var locker locks.Locker
	switch mode {
	case "wait1", "wait2":
		n := 1
		if mode == "wait2" {
			n = 2
		}
		locker, err = locks.NewWait(ctx, master.Addr(), locks.WaitOptions{Replicas: n, Timeout: cfg.waitTimeout})
	default:
		locker, err = locks.NewSentinel(ctx, topologies.Addrs(topo.Sentinels()), locks.SentinelOptions{MasterName: topo.Spec().MasterName})
	}
	if err != nil {
		return err
	}
	defer locker.Close()
	a := NewClient("A", locker, rec)

	rnd := env.Rand(v.Name, trial)
	inputs := map[string]float64{"delay_ms": float64(delay.Milliseconds())}
	healCut := noHeal
	if cfg.cut == "link-kill" {
		nodes := append([]topologies.Node{master}, topo.Replicas()...)
		if healCut, err = inject(ctx, "replication-link-kill", Target{Nodes: nodes, Recorder: rec}); err != nil {
			return err
		}
		defer healCut(context.Background()) // stopped replicas must not outlive the trial
	}
	pauseEnds := make([]time.Time, len(topo.Replicas()))
	var pausesOver sync.WaitGroup
	if cfg.cut == "pause" && cfg.lagMax > 0 {
		lags := make([]time.Duration, len(topo.Replicas()))
		for i, r := range topo.Replicas() {
			lags[i] = time.Duration(rnd.Int64N(int64(cfg.lagMax) + 1))
			if _, err := inject(ctx, "replication-pause", Target{Nodes: []topologies.Node{r}, Duration: lags[i], Recorder: rec}); err != nil {
				return err
			}
			inputs[fmt.Sprintf("lag_replica%d_ms", i)] = ms(lags[i])
			// A PING blocks until the server lifts the pause: its return is when the
			// replica really resumed, which may be later than asked.
			pausesOver.Add(1)
			go func(i int, addr string) {
				defer pausesOver.Done()
				c := plainClient(addr)
				defer c.Close()
				_ = c.Ping(ctx).Err()
				pauseEnds[i] = time.Now()
			}(i, r.Addr())
		}
		inputs["lag_min_ms"], inputs["lag_max_ms"] = ms(minDuration(lags)), ms(maxDuration(lags))
	}
	defer pausesOver.Wait()
	lease, err := a.Acquire(ctx, key, 60*time.Second)
	if err != nil {
		v.skip(trial, inputs, "not-granted", err.Error())
		return nil
	}
	if err := a.Enter(ctx, res, lease); err != nil {
		return err
	}
	if err := sleep(ctx, delay); err != nil {
		return err
	}
	killedAt := time.Now()
	if _, err := inject(ctx, "node-kill", Target{Nodes: []topologies.Node{master}, Recorder: rec}); err != nil {
		return err
	}
	if err := healCut(ctx); err != nil { // a stopped replica cannot be promoted
		return err
	}
	promoCtx, promoCancel := context.WithTimeout(ctx, cfg.promotionWait)
	newMaster, err := topologies.WaitForNewMaster(promoCtx, topologies.Addrs(topo.Sentinels()), topo.Spec().MasterName, master.Addr())
	promoCancel()
	if err != nil {
		v.skip(trial, inputs, "fault-not-produced", err.Error())
		return nil
	}
	pausesOver.Wait()
	for i, r := range topo.Replicas() {
		if pauseEnds[i].IsZero() {
			continue
		}
		margin := ms(pauseEnds[i].Sub(killedAt))
		inputs[fmt.Sprintf("pause_end_after_kill_replica%d_ms", i)] = margin
		if r.Addr() == newMaster {
			inputs["lag_promoted_ms"] = inputs[fmt.Sprintf("lag_replica%d_ms", i)]
			inputs["pause_end_after_kill_promoted_ms"] = margin
		}
	}
	if err := observeKey(ctx, rec, newMaster, key); err != nil {
		return err
	}
	if err := s.secondHolder(ctx, v, rec, res, newMaster, key, time.Second); err != nil {
		return err
	}
	a.Leave(res, lease)
	_, err = env.judgeTrial(s.Name(), v, trial, inputs, rec.History())
	return err
}

// secondHolder is client B, which knows the new master: it tries for up to patience
// and, if granted, works briefly inside the resource.
func (failoverLoss) secondHolder(ctx context.Context, v *Variant, rec *Recorder, res *Resource, addr, key string, patience time.Duration) error {
	l, err := locks.NewSingle(ctx, addr, locks.RedisOptions{})
	if err != nil {
		return err
	}
	defer l.Close()
	b := NewClient("B", l, rec)
	tryCtx, cancel := context.WithTimeout(ctx, patience)
	defer cancel()
	for {
		lease, err := b.Acquire(tryCtx, key, 60*time.Second)
		if err == nil {
			v.SecondGranted++
			_ = b.Enter(ctx, res, lease)
			b.Write(ctx, res, lease)
			_ = sleep(ctx, 20*time.Millisecond)
			b.Leave(res, lease)
			_ = b.Release(ctx, lease)
			return nil
		}
		if errors.Is(err, locks.ErrNotAcquired) {
			return nil // the key survived the failover: B is refused, as it should be
		}
		if sleep(tryCtx, 10*time.Millisecond) != nil {
			return nil // the new master never answered B: no second holder
		}
	}
}

func (s failoverLoss) zombieTrial(ctx context.Context, env *Env, cfg failoverConfig, v *Variant, trial int) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	topo, err := env.start(ctx, sentinelSpec(cfg, "zombie"))
	if err != nil {
		return err
	}
	defer topo.Close()
	old := topo.Masters()[0]
	rec := NewRecorder()
	res := NewResource("resource", false, rec)
	key := fmt.Sprintf("failover-zombie:%d:%d", env.Seed, trial)

	heal, err := inject(ctx, "node-pause", Target{Nodes: []topologies.Node{old}, Recorder: rec})
	if err != nil {
		return err
	}
	defer heal(context.Background()) // a stopped process must not outlive the trial
	promoCtx, promoCancel := context.WithTimeout(ctx, cfg.promotionWait)
	newMaster, err := topologies.WaitForNewMaster(promoCtx, topologies.Addrs(topo.Sentinels()), topo.Spec().MasterName, old.Addr())
	promoCancel()
	if err != nil {
		v.skip(trial, nil, "fault-not-produced", err.Error())
		return nil
	}
	lb, err := locks.NewSingle(ctx, newMaster, locks.RedisOptions{})
	if err != nil {
		return err
	}
	defer lb.Close()
	b := NewClient("B", lb, rec)
	leaseB, err := b.Acquire(ctx, key, 60*time.Second)
	if err != nil {
		return fmt.Errorf("B on the new master: %w", err)
	}
	_ = b.Enter(ctx, res, leaseB)
	if err := heal(ctx); err != nil {
		return err
	}
	resumed := time.Now()
	// A's client still points at the old master, as a client with a fixed address does.
	la, err := locks.NewSingle(ctx, old.Addr(), locks.RedisOptions{})
	if err != nil {
		return err
	}
	defer la.Close()
	a := NewClient("A", la, rec)
	if leaseA, err := a.Acquire(ctx, key, 60*time.Second); err == nil {
		_ = a.Enter(ctx, res, leaseA)
		a.Write(ctx, res, leaseA)

	}
	window, stillZombie := zombieWindow(ctx, old.Addr(), resumed, 20*time.Second)
	if stillZombie {
		v.Notes = append(v.Notes, fmt.Sprintf("trial %d: the old master still took writes after %v", trial, window.Round(time.Millisecond)))
	}
	b.Leave(res, leaseB)
	a.Leave(res, locks.Lease{Key: key})
	v.WindowMs.add(ms(window))
	_, err = env.judgeTrial(s.Name(), v, trial, map[string]float64{"window_ms": ms(window)}, rec.History())
	return err
}

// zombieWindow probes the old master with a write every 20 ms until it refuses one
// (it became a replica) or limit passes; it returns how long after resumed the last
// write was accepted, and whether it was still accepting at the limit.
func zombieWindow(ctx context.Context, addr string, resumed time.Time, limit time.Duration) (time.Duration, bool) {
	last := resumed
	for time.Since(resumed) < limit {
		pctx, cancel := context.WithTimeout(ctx, time.Second)
		err := topologies.AdminSet(pctx, addr, "lockbench:zombie-probe", "1", time.Minute)
		cancel()
		if err != nil {
			return last.Sub(resumed), false
		}
		last = time.Now()
		if sleep(ctx, 20*time.Millisecond) != nil {
			break
		}
	}
	return last.Sub(resumed), true
}

func minDuration(ds []time.Duration) time.Duration {
	m := ds[0]
	for _, d := range ds[1:] {
		m = min(m, d)
	}
	return m
}

func maxDuration(ds []time.Duration) time.Duration {
	m := ds[0]
	for _, d := range ds[1:] {
		m = max(m, d)
	}
	return m
}
