package partition

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// sentinelSplitBrain: the master and client A are cut off from the replicas and the
// sentinels (A still reaches the master from the host: the cut is between containers).
// A replica is promoted and B locks there while A keeps taking locks on the old master:
// two masters grant the lock. The window runs from the promotion until the old master
// refuses (min-replicas-to-write, once its replicas' lag passes max-lag) or is demoted
// after the heal. Only a provider that can partition runs it.
type sentinelSplitBrain struct{}

// fitsSentinelSplitBrain: sentinels promote a replica of a master cut from them, and A
// and B lock with SET NX on either master (INFO replication, min-replicas-to-write).
func fitsSentinelSplitBrain(s lab.Store) bool { return lab.PromotesRedisReplica(s) }

// splitBrainConfig is the scenario's params, read once.
type splitBrainConfig struct {
	store                                                    lab.Failover
	ttl, cutHold, downAfter, promotionTimeout, demotionWatch time.Duration
}

type splitBrainVariant struct {
	lab.Variant
	minReplicas int
	maxLag      time.Duration
}

// replTimeout: a master drops a replica silent for this long (and then refuses writes
// under min-replicas-to-write whatever max-lag says), so it is set just past max-lag:
// the window ends by max-lag, and the cut shows in INFO within seconds, not the default 60.
func (v splitBrainVariant) replTimeout() time.Duration {
	if v.minReplicas == 0 {
		return 2 * time.Second
	}
	return v.maxLag + 2*time.Second
}

func (c splitBrainConfig) spec(v splitBrainVariant) backend.Spec {
	extra := []string{"repl-ping-replica-period 1", fmt.Sprintf("repl-timeout %d", int(v.replTimeout().Seconds())),
		fmt.Sprintf("min-replicas-to-write %d", v.minReplicas)}
	if v.minReplicas > 0 {
		extra = append(extra, fmt.Sprintf("min-replicas-max-lag %d", int(v.maxLag.Seconds())))
	}
	spec := c.store.Spec()
	spec.Replicas, spec.DownAfter, spec.FailoverTimeout, spec.ExtraConfig = 2, c.downAfter, 1500*time.Millisecond, extra
	return spec
}

// timers: quick pings and replica INFOs for a prompt promotion; the publish (hello)
// period stays sentinel's own: it decides when a master that comes back is demoted.
func (c splitBrainConfig) timers() redisadmin.SentinelTimers {
	ping := min(max(c.downAfter/2, 120*time.Millisecond), time.Second)
	return redisadmin.SentinelTimers{PingPeriod: ping, AskPeriod: 100 * time.Millisecond,
		InfoPeriod: min(max(5*ping-350*time.Millisecond, 100*time.Millisecond), 800*time.Millisecond)}
}

func (s sentinelSplitBrain) variants(p lab.Values) ([]splitBrainVariant, error) {
	var out []splitBrainVariant
	for _, m := range p.Ints("min-replicas") {
		if m == 0 {
			out = append(out, s.variant(m, 0))
			continue
		}
		for _, lag := range p.Durations("max-lags") {
			if lag < time.Second || lag%time.Second != 0 {
				return nil, &lab.ParamError{Name: "max-lags", Value: lag.String(), Want: "whole seconds, at least 1s " +
					"(min-replicas-max-lag counts seconds)"}
			}
			out = append(out, s.variant(m, lag))
		}
	}
	return out, nil
}

// variant: whatever the guard, A's grant right after the cut and B's on the promoted
// replica overlap; with no guard, or a max-lag longer than the promotion takes, the old
// master also grants after the promotion. With max-lag 1 s it is a measured point.
func (sentinelSplitBrain) variant(m int, lag time.Duration) splitBrainVariant {
	name := "min-replicas-0"
	what := "min-replicas-to-write 0: the old master grants until the heal lets sentinel demote it"
	claims := []results.Claim{results.Always(results.Violations), results.Always(results.SplitBrainWindow)}
	if m > 0 {
		name = fmt.Sprintf("min-replicas-%d-max-lag-%ds", m, int(lag.Seconds()))
		what = fmt.Sprintf("min-replicas-to-write %d, min-replicas-max-lag %d (repl-timeout %d): the old master refuses "+
			"once its replicas' lag passes %v", m, int(lag.Seconds()), int((lag + 2*time.Second).Seconds()), lag)
		if lag <= time.Second {
			claims = claims[:1]
		}
	}
	sv := splitBrainVariant{minReplicas: m, maxLag: lag}
	sv.Variant = lab.Variant{Variant: &results.Variant{
		Name: name,
		Description: "master and A cut off from replicas and sentinels; A locks on the old master, B on the promoted " +
			"replica; " + what,
		Params: map[string]string{"min_replicas_to_write": fmt.Sprint(m), "min_replicas_max_lag": lag.String(),
			"repl_timeout": sv.replTimeout().String()},
		Measure: results.SplitBrainWindow,
		Claims:  claims,
		WindowIs: "from the promotion (the first grant probe on the old master) to the old master's last accepted " +
			"grant: it ends at its first NOREPLICAS, or at READONLY once sentinel demotes it after the heal",
	}}
	return sv
}

func (s sentinelSplitBrain) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	variants, err := s.variants(p)
	if err != nil {
		return nil, err
	}
	c := splitBrainConfig{store: p.Store("strategies").(lab.Failover), ttl: p.Duration("ttl"),
		cutHold: p.Duration("cut-hold"), downAfter: p.Duration("down-after"),
		promotionTimeout: p.Duration("promotion-timeout"), demotionWatch: p.Duration("demotion-watch")}
	if len(variants) == 0 {
		return env.NewReport(), nil
	}
	// A provider that cannot partition is refused before any trial: nothing to measure.
	start := func(ctx context.Context, spec backend.Spec) (topologies.Topology, error) {
		return c.start(ctx, env, spec)
	}
	deployments, err := startFirst(ctx, env, c.spec(variants[0]), start, sameConfig)
	if err != nil {
		return nil, err
	}
	defer deployments.closeUnused()
	return lab.RunTrials(ctx, env, variants, func(ctx context.Context, v splitBrainVariant, t *lab.Trial) error {
		topo, err := deployments.forTrial(ctx, c.spec(v))
		if err != nil {
			return err
		}
		defer topo.Close()
		ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
		return c.trial(ctx, topo, t)
	})
}

// sameConfig: the first deployment serves the first trial only if its servers are configured for it.
func sameConfig(a, b backend.Spec) bool {
	return fmt.Sprint(a.ExtraConfig) == fmt.Sprint(b.ExtraConfig)
}

func (c splitBrainConfig) start(ctx context.Context, env *lab.Env, spec backend.Spec) (topologies.Topology, error) {
	topo, err := env.StartTopology(ctx, spec)
	if err != nil {
		return nil, err
	}
	if err := redisadmin.TuneSentinels(ctx, topo, c.timers()); err != nil {
		topo.Close()
		return nil, err
	}
	return topo, nil
}
