package failover

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/sentinelrig"
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

var failoverGuards = []sentinelrig.Guard{
	{Mode: "none"},
	{Mode: "wait1", WaitReplicas: 1},
	{Mode: "wait2", WaitReplicas: 2},
	{Mode: "min-replicas", MinReplicas: true},
	{Mode: stalledMode, MinReplicas: true},
	{Mode: "zombie", Zombie: true},
	{Mode: plannedMode, Planned: true},
	{Mode: "waitaof-replica", WaitAOF: "waitaof-replica", WaitAOFCommand: "WAITAOF 0 1"},
	{Mode: "waitaof-both", WaitAOF: "waitaof-both", WaitAOFCommand: "WAITAOF 1 1"},
}

// defaultModes leave out the WAITAOF guards, which need Valkey: --param modes names them.
var defaultModes = []string{"none", "wait1", "wait2", "min-replicas", stalledMode, "zombie", plannedMode}

// plannedMode: no guard, and SENTINEL FAILOVER (host patching) instead of a kill.
const plannedMode = "planned"

func guardModes() []string { return lab.CatalogueNames(failoverGuards, guardMode) }

func guardMode(g sentinelrig.Guard) string { return g.Mode }

// defaultParallel: trials at once when --param parallel is not given, chosen from the
// benchmark on a 2-core machine (docs/safety.md, Trial throughput).
const defaultParallel = 4

// zombieProbeInterval paces the writes that measure a zombie's window.
const zombieProbeInterval = 20 * time.Millisecond

// readFailoverConfig reads the params of a run of trials trials per variant.
func readFailoverConfig(p lab.Values, trials int) sentinelrig.Config {
	c := sentinelrig.ReadDeploymentParams(p)
	c.Delays, c.LagMax, c.WaitTimeout = p.Durations("delays"), p.Duration("lag-max"), p.Duration("wait-timeout")
	c.Cut, c.ZombieWatch = p.String("cut"), p.Duration("zombie-watch")
	// No more at once than a variant has trials: the pool holds deployments for each.
	c.Parallel = min(p.Int("parallel"), max(trials, 1))
	c.LinkKill = c.Cut == "link-kill"
	c.Guards = lab.PickNamed(failoverGuards, p.Strings("modes"), guardMode)
	return c
}

// failoverVariant is one guard at one kill delay (the zombie has no delay), and where
// its trials got their deployments.
type failoverVariant struct {
	lab.Variant
	guard sentinelrig.Guard
	delay time.Duration
	use   sentinelrig.DeploymentUse
}

// fitsFailoverLoss: a master whose sentinels promote a replica (the deployment the rig
// starts), or a store whose primary is the key's master.
func fitsFailoverLoss(s lab.Store) bool {
	return sentinelrig.Fits(s) || lab.IsKeyedFailover(s)
}

func (s failoverLoss) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	rep := env.NewReport()
	var keyed []lab.KeyedFailover
	var promoted []lab.Store // the sentinel deployments' stores
	for _, st := range p.Stores("strategies") {
		if k, ok := st.(lab.KeyedFailover); ok {
			keyed = append(keyed, k)
		} else {
			promoted = append(promoted, st)
		}
	}
	if len(keyed) > 0 && p.String("cut") != "pause" {
		return nil, &lab.ParamError{Name: "cut", Value: p.String("cut"), Want: "pause: a store whose primary is the key's " +
			"master (" + keyed[0].Strategy() + ") runs no link-kill"}
	}
	// The sentinel deployments' variants do not name their store: one such store a run.
	if len(promoted) > 1 {
		return nil, &lab.ParamError{Name: "strategies", Value: env.Params["strategies"], Want: "at most one store whose " +
			"sentinels promote a replica (" + promoted[0].Strategy() + " or " + promoted[1].Strategy() + ")"}
	}
	if len(promoted) == 1 {
		if err := s.runSentinel(ctx, env, p, rep, promoted[0].Strategy()); err != nil {
			return nil, err
		}
	}
	for _, st := range keyed {
		if err := s.runKeyed(ctx, env, rep, st, readFailoverConfig(p, env.Trials)); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

func (s failoverLoss) runSentinel(ctx context.Context, env *lab.Env, p lab.Values, rep *results.Report,
	strategy string) error {
	maxLag := p.Duration("stalled-max-lag")
	if maxLag%time.Second != 0 {
		return &lab.ParamError{Name: "stalled-max-lag", Value: maxLag.String(), Want: "whole seconds: Redis's " +
			"min-replicas-max-lag is an integer of seconds"}
	}
	cfg := readFailoverConfig(p, env.Trials)
	cfg.Strategy = strategy
	if cfg.LinkKill {
		// A planned failover needs a replica that answers; link-kill stops them all.
		if _, explicit := env.Params["modes"]; explicit &&
			slices.ContainsFunc(cfg.Guards, func(g sentinelrig.Guard) bool { return g.Planned }) {
			return &lab.ParamError{Name: "modes", Value: env.Params["modes"], Want: "modes without planned under " +
				"cut=link-kill: a planned failover needs a replica that answers, and link-kill stops every one"}
		}
		cfg.Guards = slices.DeleteFunc(cfg.Guards, func(g sentinelrig.Guard) bool { return g.Planned })
	}
	// A WAITAOF guard runs on deployments of its own: Valkey, an AOF on every data node.
	durable := cfg
	durable.Durable = true
	durable.Guards = slices.DeleteFunc(slices.Clone(cfg.Guards), func(g sentinelrig.Guard) bool { return g.WaitAOF == "" })
	cfg.Guards = slices.DeleteFunc(cfg.Guards, func(g sentinelrig.Guard) bool { return g.WaitAOF != "" })
	for _, c := range []sentinelrig.Config{cfg, durable} {
		if len(c.Guards) == 0 {
			continue
		}
		if err := s.runGuards(ctx, env, rep, c, maxLag); err != nil {
			return err
		}
	}
	return nil
}

// runGuards runs every guard of c on deployments of c's own.
func (s failoverLoss) runGuards(ctx context.Context, env *lab.Env, rep *results.Report, c sentinelrig.Config,
	maxLag time.Duration) error {
	r, err := sentinelrig.NewRun(env, c)
	if err != nil {
		return err
	}
	defer r.Close()
	for _, g := range r.Guards {
		if g.Mode == stalledMode {
			v := stalledVariant(maxLag)
			if err := s.runVariant(ctx, env, r.Parallel, v, func(ctx context.Context, t *lab.Trial) error {
				return sentinelrig.Borrow(ctx, r.LossDeployments, &v.use,
					func(topo topologies.Topology) error { return stalledTrial(ctx, r, topo, maxLag, t) })
			}); err != nil {
				return err
			}
			rep.Variants = append(rep.Variants, v.Result())
			continue
		}
		if g.Zombie {
			v := zombieVariant(r)
			if err := s.runVariant(ctx, env, r.Parallel, v, func(ctx context.Context, t *lab.Trial) error {
				return sentinelrig.Borrow(ctx, r.ZombieDeployments, &v.use,
					func(topo topologies.Topology) error { return zombieTrial(ctx, r, topo, t) })
			}); err != nil {
				return err
			}
			rep.Variants = append(rep.Variants, v.Result())
			continue
		}
		var variants []*failoverVariant
		for _, delay := range r.Delays {
			v := delayVariant(r, g, delay)
			if err := s.runVariant(ctx, env, r.Parallel, v, func(ctx context.Context, t *lab.Trial) error {
				return sentinelrig.Borrow(ctx, r.LossDeployments, &v.use,
					func(topo topologies.Topology) error { return lossTrial(ctx, r, topo, v, t) })
			}); err != nil {
				return err
			}
			variants = append(variants, v)
			rep.Variants = append(rep.Variants, v.Result())
		}
		rep.Series = append(rep.Series, lossByDelay(g, variants))
		// Under WAIT the grant itself waits out the lag, so the margin means nothing there.
		if !r.LinkKill && r.LagMax > 0 && g.WaitReplicas == 0 && g.WaitAOF == "" {
			rep.Series = append(rep.Series, lossByLagMargin(g, variants))
		}
	}
	return nil
}

// runVariant runs v's trials, parallel at once (see the param).
func (s failoverLoss) runVariant(ctx context.Context, env *lab.Env, parallel int, v *failoverVariant,
	trial func(ctx context.Context, t *lab.Trial) error) error {
	if err := env.RunVariant(ctx, env.Scenario(), v.Result(), parallel, func(ctx context.Context, t *lab.Trial) error {
		ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
		return trial(ctx, t)
	}); err != nil {
		return err
	}
	if n := v.use.Note(); n != "" {
		v.Note(n)
	}
	return nil
}

func delayVariant(r *sentinelrig.Run, g sentinelrig.Guard, delay time.Duration) *failoverVariant {
	return &failoverVariant{Variant: lab.Variant{Variant: &results.Variant{
		Name:        fmt.Sprintf("%s-delay-%dms", g.Mode, delay.Milliseconds()),
		Description: fmt.Sprintf("%s; %s; %s%s", g.Grant(r.WaitTimeout), r.CutDescription(), g.Failover(delay), crashCase(g)),
		Params:      map[string]string{"mode": g.Mode, "delay": delay.String(), "lag_max": r.LagMax.String(), "cut": r.Cut},
		Measure:     results.LostLocks,
		Claims:      lossClaims(r.Config, g, delay),
		WindowIs:    plannedWindow(g),
	}}, guard: g, delay: delay}
}

// plannedWindow says what a planned failover's window measures: the old master lives
// on, and grants until sentinel turns it into a replica.
func plannedWindow(g sentinelrig.Guard) string {
	if !g.Planned {
		return ""
	}
	return "from SENTINEL FAILOVER to the old master's last accepted probe write (it accepts until sentinel turns " +
		"it into a replica; a window still open at zombie-watch is a lower bound)"
}

// crashCase says what a min-replicas variant measures: lags far below its max-lag, so
// the master counts every replica good and grants as if unguarded.
func crashCase(g sentinelrig.Guard) string {
	if !g.MinReplicas {
		return ""
	}
	return "; every lag run is far below the max-lag of 10 s, so the master counts both replicas good: the crash case " +
		"min-replicas-to-write cannot see"
}

// lossClaims: WAIT 2 keeps the key on every replica; with no guard a grant that no
// replica saw (link-kill) is always lost, and a kill before any drawn lag can end
// loses it in some trials. Everything else is a point of the sweep, the WAITAOF
// guards' too.
func lossClaims(cfg sentinelrig.Config, g sentinelrig.Guard, delay time.Duration) []results.Claim {
	switch {
	case g.WaitReplicas >= 2:
		return []results.Claim{results.Holds(results.LostLocks)}
	case g.Unguarded() && cfg.LinkKill:
		return []results.Claim{results.Always(results.LostLocks)}
	case g.WaitReplicas == 0 && g.WaitAOF == "" && !g.Planned && !cfg.LinkKill && delay == 0 &&
		cfg.LagMax >= 20*time.Millisecond:
		return []results.Claim{results.Breaks(results.LostLocks)}
	}
	return nil
}

func zombieVariant(r *sentinelrig.Run) *failoverVariant {
	return &failoverVariant{Variant: lab.Variant{Variant: &results.Variant{
		Name: "zombie",
		Description: "SIGSTOP the master until a replica is promoted; B locks on the new master; SIGCONT the old one; A, " +
			"still pointed at it, locks there too; " +
			"sentinel's INFO and hello periods are left at their defaults (10 s, 2 s): they decide when sentinel turns the " +
			"old master into a replica",
		Params:  map[string]string{"mode": "zombie", "zombie_watch": r.ZombieWatch.String()},
		Measure: results.Violations,
		Claims:  []results.Claim{results.Breaks(results.Violations), results.Breaks(results.SplitBrainWindow)},
		WindowIs: "from the old master's first probe write after its resume to its last accepted one (it accepts until " +
			"sentinel turns it into a replica; a window still open at zombie-watch is a lower bound)",
	}}, guard: sentinelrig.Guard{Mode: "zombie", Zombie: true}}
}
