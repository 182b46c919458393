package waitobjections

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/sentinelrig"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
)

// waitObjections: the write-up's two objections to WAIT, and what WAIT costs. (a) The
// replica that acknowledged is not the one promoted: the lagging replica is favoured
// by replica-priority (a1), or the acknowledging one dies with the master (a2). (b)
// Acknowledged is not durable: the master and the acknowledging replica restart empty
// together. Each on a sentinel deployment (master and 2 replicas) with one replica held
// back by CLIENT PAUSE across the grant. The cost variants time SET + WAIT n on a
// replicated topology with one replica lagging by a CLIENT PAUSE of each length.
type waitObjections struct{}

// objection is one way the acknowledged grant is lost, as --param objections names it.
type objection struct {
	name, fault string
}

var objections = []objection{
	{"a1-priority", "the lagging replica has replica-priority 1, the acknowledger 100; the master is SIGKILLed at once: " +
		"sentinel promotes the lagging one"},
	{"a2-acker-dies", "the master and the acknowledging replica are SIGKILLed together: the lagging one is the only " +
		"replica left to promote"},
	{"b-restart-empty", "the master and the acknowledging replica restart empty together (node-restart-empty): what " +
		"they acknowledged was only in memory"},
}

func objectionNames() []string { return lab.CatalogueNames(objections, objectionName) }

func objectionName(o objection) string { return o.name }

// waitObjectionsConfig is the scenario's params, read once.
type waitObjectionsConfig struct {
	objections       []objection
	waits            []int
	lag, waitTimeout time.Duration
	promotionTimeout time.Duration
	cost             bool
	costLags         []time.Duration
	costWaits        []int
	costSamples      int
	deployments      sentinelrig.Config // the sentinel deployments' settings, shared with failover-loss
}

func readWaitObjectionsConfig(p lab.Values) waitObjectionsConfig {
	c := waitObjectionsConfig{waits: p.Ints("waits"), lag: p.Duration("lag"), waitTimeout: p.Duration("wait-timeout"),
		promotionTimeout: p.Duration("promotion-timeout"), cost: p.Bool("cost"), costLags: p.Durations("cost-lags"),
		costWaits: p.Ints("cost-waits"), costSamples: p.Int("cost-samples"),
		deployments: sentinelrig.ReadDeploymentParams(p)}
	c.objections = lab.PickNamed(objections, p.Strings("objections"), objectionName)
	return c
}

// objectionVariant is one objection under WAIT n.
type objectionVariant struct {
	lab.Variant
	objection objection
	wait      int
	use       sentinelrig.DeploymentUse
}

func (s waitObjections) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	c := readWaitObjectionsConfig(p)
	// 5 ping periods is sentinel's freshness bound on a replica's last reply.
	if ping := min(max(c.deployments.DownAfter/2, 120*time.Millisecond), time.Second); len(c.objections) > 0 &&
		c.lag >= 5*ping {
		return nil, &lab.ParamError{Name: "lag", Value: c.lag.String(), Want: fmt.Sprintf(
			"a pause under 5 sentinel ping periods (%v at down-after %v), or sentinel will not promote the lagging "+
				"replica", 5*ping, c.deployments.DownAfter)}
	}
	rep := env.NewReport()
	if len(c.objections) > 0 {
		r, err := sentinelrig.NewRun(env, c.deployments)
		if err != nil {
			return nil, err
		}
		defer r.Close()
		for _, v := range objectionVariants(c) {
			if err := s.runObjection(ctx, env, r, c, v); err != nil {
				return nil, err
			}
			rep.Variants = append(rep.Variants, v.Result())
		}
	}
	if c.cost {
		cost, series, err := s.runCost(ctx, env, c)
		if err != nil {
			return nil, err
		}
		rep.Variants = append(rep.Variants, cost...)
		rep.Series = append(rep.Series, series...)
	}
	return rep, nil
}

func (s waitObjections) runObjection(ctx context.Context, env *lab.Env, r *sentinelrig.Run, c waitObjectionsConfig,
	v *objectionVariant) error {
	for n := range env.TrialsOf(v.Result()) {
		if err := env.RunTrial(ctx, env.Scenario(), v.Result(), n, func(ctx context.Context, t *lab.Trial) error {
			ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
			defer cancel()
			return sentinelrig.Borrow(ctx, r.LossDeployments, &v.use,
				func(topo topologies.Topology) error { return objectionTrial(ctx, r, c, topo, v, t) })
		}); err != nil {
			return err
		}
	}
	if n := v.use.Note(); n != "" {
		v.Note(n)
	}
	return nil
}

func objectionVariants(c waitObjectionsConfig) []*objectionVariant {
	var out []*objectionVariant
	for _, o := range c.objections {
		for _, w := range c.waits {
			fault := o.fault
			if w >= 2 {
				fault += "; under WAIT 2 the paused replica acknowledged too, once its pause ended: it holds the key"
			}
			out = append(out, &objectionVariant{Variant: lab.Variant{Variant: &results.Variant{
				Name: fmt.Sprintf("%s-wait%d", o.name, w),
				Description: fmt.Sprintf("SET NX PX on the master, then WAIT %d %d; one replica paused (CLIENT PAUSE %v) just "+
					"before the grant, the other acknowledges; %s",
					w, c.waitTimeout.Milliseconds(), c.lag, fault),
				Params: map[string]string{"objection": o.name, "wait": fmt.Sprint(w), "lag": c.lag.String(),
					"wait_timeout": c.waitTimeout.String()},
				Measure: results.LostLocks,
				Claims:  objectionClaims(o, w),
			}}, objection: o, wait: w})
		}
	}
	return out
}

// objectionClaims: under WAIT 1 only the paused replica lacks the key, and each
// objection makes that one (or an empty node) the next master: the lock is lost.
// WAIT 2 waits out the pause, so the promoted replica holds the key. After the restart
// under WAIT 2 the replica left standing has the key, and whether it keeps it is a race
// (promoted before the restarted master is back, or resynced from it empty): a point,
// its lost_locks counted, no claim.
func objectionClaims(o objection, wait int) []results.Claim {
	switch {
	case wait >= 2 && o.name == "b-restart-empty":
		return nil
	case wait >= 2:
		return []results.Claim{results.Holds(results.LostLocks)}
	}
	return []results.Claim{results.Breaks(results.LostLocks)}
}
