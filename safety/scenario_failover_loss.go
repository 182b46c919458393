package safety

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
)

// failoverLoss: on a sentinel deployment, the master dies delay after granting a lock
// whose SET the replicas had not applied yet (each replica's stream held back by a
// CLIENT PAUSE of a drawn length, or every replica cut off). The promoted replica
// lacks the key: the lock is lost and a second client takes it. WAIT 1, WAIT 2 and
// min-replicas-to-write change the odds. The zombie mode stops the master instead and
// measures how long the old master takes writes after it comes back.
type failoverLoss struct{}

func init() { lab.Register(failoverLoss{}) }

func (failoverLoss) Name() string { return "failover-loss" }
func (failoverLoss) Summary() string {
	return "sentinel master dies delay after a grant: the promoted replica may lack the lock (loss probability vs delay and lag; WAIT 1, WAIT 2, min-replicas-to-write; zombie master)"
}

// failoverGuard is what stands between the first grant and the failover: one mode of
// the scenario, read once from its name.
type failoverGuard struct {
	mode         string // as --param modes spells it
	waitReplicas int    // SET then WAIT this many replicas; 0 for no WAIT
	minReplicas  bool   // min-replicas-to-write 1 (max-lag 10 s) on every data node
	zombie       bool   // stop the master through the failover and resume it, instead of killing it
}

var failoverGuards = []failoverGuard{
	{mode: "none"},
	{mode: "wait1", waitReplicas: 1},
	{mode: "wait2", waitReplicas: 2},
	{mode: "min-replicas", minReplicas: true},
	{mode: "zombie", zombie: true},
}

func guardModes() []string {
	names := make([]string, len(failoverGuards))
	for i, g := range failoverGuards {
		names[i] = g.mode
	}
	return names
}

// unguarded is a grant that nothing waits for: SET NX and go.
func (g failoverGuard) unguarded() bool { return g.waitReplicas == 0 && !g.minReplicas && !g.zombie }

func (g failoverGuard) grant(waitTimeout time.Duration) string {
	switch {
	case g.waitReplicas > 0:
		return fmt.Sprintf("SET NX PX on the master, then WAIT %d %d", g.waitReplicas, waitTimeout.Milliseconds())
	case g.minReplicas:
		return "SET NX PX through sentinel, min-replicas-to-write 1 (max-lag 10 s) on every data node"
	}
	return "SET NX PX through sentinel"
}

func (failoverLoss) Params() []lab.Param {
	return []lab.Param{
		lab.ChoicesParam("modes", guardModes(), guardModes(), "what guards the grant: none (sentinel SET NX), wait1, wait2 (SET then WAIT n), min-replicas (min-replicas-to-write 1), zombie (stop the master, resume it after the failover)"),
		lab.DurationsParam("delays", []time.Duration{0, 10 * time.Millisecond, 25 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond}, "time from grant to SIGKILL of the master"),
		lab.DurationParam("lag-max", 50*time.Millisecond, 0, "each replica stops applying the stream (CLIENT PAUSE) for a whole number of ms drawn uniformly in [0, lag-max] just before the grant; 0 means natural lag only"),
		lab.ChoiceParam("cut", "pause", []string{"pause", "link-kill"}, "how the replicas miss the grant: pause (CLIENT PAUSE each for its drawn lag) or link-kill (SIGSTOP the replicas and CLIENT KILL TYPE replica on the master before the grant, SIGCONT after the kill: every grant is missed)"),
		lab.DurationParam("wait-timeout", 200*time.Millisecond, time.Millisecond, "WAIT's timeout in the wait modes: fewer acks by then refuse the grant"),
		lab.DurationParam("down-after", 400*time.Millisecond, 200*time.Millisecond, "sentinel down-after-milliseconds (sentinels then ping and reconnect every half of it, at most 1 s)"),
		lab.DurationParam("failover-timeout", 1500*time.Millisecond, 1100*time.Millisecond, "sentinel failover-timeout: a promotion must be seen within it, and sentinel sees one only at its next once-a-second INFO of the replica"),
		lab.DurationParam("promotion-timeout", 15*time.Second, time.Millisecond, "how long to wait for a new master before the trial is fault_not_produced"),
		lab.DurationParam("zombie-watch", 20*time.Second, 100*time.Millisecond, "zombie mode: how long to keep probing the resumed old master for writes; a window cut here is a lower bound"),
		lab.SwitchParam("reuse", true, "re-form each sentinel deployment after a trial instead of starting a fresh one per trial"),
		lab.IntParam("deployments", 2, 1, 4, "with reuse: sentinel deployments in rotation, so that one re-forms while a trial runs on another"),
		lab.DurationParam("reform-timeout", 15*time.Second, time.Second, "with reuse: how long a deployment may take to re-form before a fresh one replaces it"),
	}
}

// failoverConfig is the scenario's params, read once.
type failoverConfig struct {
	guards                        []failoverGuard
	delays                        []time.Duration
	lagMax, waitTimeout           time.Duration
	cut                           string // as --param cut spells it
	linkKill                      bool
	downAfter, failoverTimeout    time.Duration
	promotionTimeout, zombieWatch time.Duration
	reuse                         bool
	deployments                   int
	reformTimeout                 time.Duration
}

// B waits this long for a promoted master that refuses writes for want of replicas.
const secondClientPatience = 3 * time.Second

// zombieProbeInterval paces the writes that measure a zombie's window.
const zombieProbeInterval = 20 * time.Millisecond

func readFailoverConfig(p lab.Values) failoverConfig {
	c := failoverConfig{
		delays: p.Durations("delays"), lagMax: p.Duration("lag-max"), waitTimeout: p.Duration("wait-timeout"),
		cut: p.String("cut"), downAfter: p.Duration("down-after"), failoverTimeout: p.Duration("failover-timeout"),
		promotionTimeout: p.Duration("promotion-timeout"), zombieWatch: p.Duration("zombie-watch"),
		reuse: p.Bool("reuse"), deployments: p.Int("deployments"), reformTimeout: p.Duration("reform-timeout"),
	}
	c.linkKill = c.cut == "link-kill"
	for _, m := range p.Strings("modes") {
		for _, g := range failoverGuards {
			if g.mode == m {
				c.guards = append(c.guards, g)
			}
		}
	}
	return c
}

func (c failoverConfig) cutDescription() string {
	if c.linkKill {
		return "replicas SIGSTOPped and their links killed before the grant, resumed after the kill"
	}
	return fmt.Sprintf("each replica paused (CLIENT PAUSE) for up to %v just before the grant", c.lagMax)
}

// spec is the deployment every trial runs on, fresh or re-formed.
func (c failoverConfig) spec() topologies.Spec {
	return topologies.Spec{Kind: topologies.Sentinel, Replicas: 2, DownAfter: c.downAfter, FailoverTimeout: c.failoverTimeout,
		// A re-formed node full-syncs from an RDB on disk: after a diskless sync Redis
		// 7.0 streams nothing to the replica until its once-a-second first ACK.
		ExtraConfig: []string{"repl-diskless-sync no"}}
}

// timers tighten sentinel where the scenario allows (measured on this machine):
//   - pings and reconnections every half of down-after: after a failover a sentinel
//     reaches the new master only a ping period after it last tried the dead one, and
//     a new master out of reach for down-after is failed over in turn (flapping);
//   - loss modes: replicas INFOed every 5 ping periods less 350 ms. Sentinel promotes
//     only a replica whose INFO is younger than 5 ping periods, and during a failover
//     it INFOs replicas once a second, counted from the last INFO before it: so it sees
//     the promotion sooner the older that INFO may be. With down-after 400 ms (ping
//     200, INFO 650) a trial took 1.25 s at the median, against 1.44 s with 300 ms
//     (ping 150, INFO 400) and 1.5 s with INFO at 100 ms;
//   - the zombie keeps sentinel's own INFO and hello periods (10 s, 2 s): they decide
//     how long a resumed master goes on taking writes.
func (c failoverConfig) timers(zombie bool) topologies.SentinelTimers {
	ping := min(max(c.downAfter/2, 120*time.Millisecond), time.Second)
	t := topologies.SentinelTimers{PingPeriod: ping, AskPeriod: 100 * time.Millisecond}
	if !zombie {
		t.InfoPeriod = min(max(5*ping-350*time.Millisecond, 100*time.Millisecond), 800*time.Millisecond)
	}
	return t
}

// failoverVariant is one guard at one kill delay (the zombie has no delay), and where
// its trials got their deployments.
type failoverVariant struct {
	lab.Variant
	guard failoverGuard
	delay time.Duration
	use   deploymentUse
}

func (s failoverLoss) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	r, err := newFailoverRun(env, readFailoverConfig(p))
	if err != nil {
		return nil, err
	}
	defer r.close()
	rep := env.NewReport(s)
	for _, g := range r.guards {
		if g.zombie {
			v := r.zombieVariant()
			if err := s.runVariant(ctx, env, v, func(ctx context.Context, t *lab.Trial) error {
				return borrow(ctx, r.zombieDeployments, &v.use, func(topo topologies.Topology) error { return r.zombieTrial(ctx, topo, t) })
			}); err != nil {
				return nil, err
			}
			rep.Variants = append(rep.Variants, v.Result())
			continue
		}
		var variants []*failoverVariant
		for _, delay := range r.delays {
			v := r.delayVariant(g, delay)
			if err := s.runVariant(ctx, env, v, func(ctx context.Context, t *lab.Trial) error {
				return borrow(ctx, r.lossDeployments, &v.use, func(topo topologies.Topology) error { return r.lossTrial(ctx, topo, v, t) })
			}); err != nil {
				return nil, err
			}
			variants = append(variants, v)
			rep.Variants = append(rep.Variants, v.Result())
		}
		rep.Series = append(rep.Series, lossByDelay(g, variants))
		// Under WAIT the grant itself waits out the lag, so the margin means nothing there.
		if !r.linkKill && r.lagMax > 0 && g.waitReplicas == 0 {
			rep.Series = append(rep.Series, lossByLagMargin(g, variants))
		}
	}
	return rep, nil
}

func (s failoverLoss) runVariant(ctx context.Context, env *lab.Env, v *failoverVariant, trial func(ctx context.Context, t *lab.Trial) error) error {
	for n := range env.TrialsOf(v.Result()) {
		if err := env.RunTrial(ctx, s.Name(), v.Result(), n, func(ctx context.Context, t *lab.Trial) error {
			ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
			defer cancel()
			return trial(ctx, t)
		}); err != nil {
			return err
		}
	}
	if n := v.use.note(); n != "" {
		v.Note(n)
	}
	return nil
}

func (r *failoverRun) delayVariant(g failoverGuard, delay time.Duration) *failoverVariant {
	return &failoverVariant{Variant: lab.Variant{Variant: &results.Variant{
		Name:        fmt.Sprintf("%s-delay-%dms", g.mode, delay.Milliseconds()),
		Description: fmt.Sprintf("%s; %s; master SIGKILLed %v after the grant", g.grant(r.waitTimeout), r.cutDescription(), delay),
		Params:      map[string]string{"mode": g.mode, "delay": delay.String(), "lag_max": r.lagMax.String(), "cut": r.cut},
		Measure:     results.LostLocks,
		Claims:      lossClaims(r.failoverConfig, g, delay),
	}}, guard: g, delay: delay}
}

// lossClaims: WAIT 2 keeps the key on every replica; with no guard a grant that no
// replica saw (link-kill) is always lost, and a kill before any drawn lag can end
// loses it in some trials. Everything else is a point of the sweep.
func lossClaims(cfg failoverConfig, g failoverGuard, delay time.Duration) []results.Claim {
	switch {
	case g.waitReplicas >= 2:
		return []results.Claim{results.Holds(results.LostLocks)}
	case g.unguarded() && cfg.linkKill:
		return []results.Claim{results.Always(results.LostLocks)}
	case g.waitReplicas == 0 && !cfg.linkKill && delay == 0 && cfg.lagMax >= 20*time.Millisecond:
		return []results.Claim{results.Breaks(results.LostLocks)}
	}
	return nil
}

func (r *failoverRun) zombieVariant() *failoverVariant {
	return &failoverVariant{Variant: lab.Variant{Variant: &results.Variant{
		Name: "zombie",
		Description: "SIGSTOP the master until a replica is promoted; B locks on the new master; SIGCONT the old one; A, still pointed at it, locks there too; " +
			"sentinel's INFO and hello periods are left at their defaults (10 s, 2 s): they decide when sentinel turns the old master into a replica",
		Params:   map[string]string{"mode": "zombie", "zombie_watch": r.zombieWatch.String()},
		Measure:  results.Violations,
		Claims:   []results.Claim{results.Breaks(results.Violations), results.Breaks(results.SplitBrainWindow)},
		WindowIs: "from the old master's first probe write after its resume to its last accepted one (it accepts until sentinel turns it into a replica; a window still open at zombie-watch is a lower bound)",
	}}, guard: failoverGuard{mode: "zombie", zombie: true}}
}
