package waitobjections

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// costReplicaHz is the paused replica's cron rate: its pauses end within 2 ms.
const costReplicaHz = 500

// costVariant is SET + WAIT n timed with one replica lagging by lag.
type costVariant struct {
	lab.Variant
	wait int
	lag  time.Duration
}

func costVariants(c waitObjectionsConfig) []*costVariant {
	var out []*costVariant
	for _, w := range c.costWaits {
		for _, lag := range c.costLags {
			grant := fmt.Sprintf("SET then WAIT %d %d, pipelined", w, c.waitTimeout.Milliseconds())
			if w == 0 {
				grant = "SET alone (the baseline WAIT adds to)"
			}
			out = append(out, &costVariant{Variant: lab.Variant{Variant: &results.Variant{
				Name: fmt.Sprintf("cost-wait%d-lag-%dms", w, lag.Milliseconds()),
				Description: fmt.Sprintf("master and 2 replicas; %d timed samples per trial: one replica paused (CLIENT PAUSE "+
					"%v, the other not) just before each %s", c.costSamples, lag, grant),
				Params: map[string]string{"wait": fmt.Sprint(w), "lag": lag.String(), "samples": fmt.Sprint(c.costSamples),
					"wait_timeout": c.waitTimeout.String()},
				Measure: results.WaitShort,
				// A pause far below WAIT's timeout is always waited out.
				Claims: []results.Claim{results.Holds(results.WaitShort)},
			}}, wait: w, lag: lag})
		}
	}
	return out
}

func (s waitObjections) runCost(ctx context.Context, env *lab.Env, c waitObjectionsConfig) ([]*results.Variant,
	[]results.Series, error) {
	variants := costVariants(c)
	topo, err := env.StartTopology(ctx, backend.Spec{Kind: topologies.Replicated, Replicas: 2})
	if err != nil {
		return nil, nil, err
	}
	defer topo.Close()
	sub, err := lab.RunTrials(ctx, env, variants, func(ctx context.Context, v *costVariant, t *lab.Trial) error {
		ctx, cancel := context.WithTimeout(ctx, time.Duration(c.costSamples)*(v.lag+c.waitTimeout)+30*time.Second)
		defer cancel()
		return costTrial(ctx, topo, c, v, t)
	})
	if err != nil {
		return nil, nil, err
	}
	return sub.Variants, costSeries(variants), nil
}

// costTrial times c.costSamples grants; each sample's latency is an input
// (wait_ms_s<sample>) so that the series can pool them.
func costTrial(ctx context.Context, topo topologies.Topology, c waitObjectionsConfig, v *costVariant,
	t *lab.Trial) error {
	master, replicas := topo.Masters()[0], topo.Replicas()
	if len(replicas) < 2 {
		return lab.Failed("setup", fmt.Errorf("replicated topology has %d replicas, want 2", len(replicas)))
	}
	lagging := replicas[0]
	mc := redis.NewClient(&redis.Options{Addr: master.Addr(), MaxRetries: -1, Protocol: 2, DisableIdentity: true,
		ReadTimeout: c.waitTimeout + 2*time.Second})
	defer mc.Close()
	lc := redis.NewClient(&redis.Options{Addr: lagging.Addr(), MaxRetries: -1, Protocol: 2, DisableIdentity: true,
		ReadTimeout: v.lag + 2*time.Second})
	defer lc.Close()
	if err := mc.Ping(ctx).Err(); err != nil {
		return lab.Failed("setup", fmt.Errorf("PING master %s: %w", master.Name(), err))
	}
	// Redis lifts a CLIENT PAUSE at its next cron tick: at the default hz 10 every
	// pause would last a multiple of 100 ms.
	if err := lc.ConfigSet(ctx, "hz", fmt.Sprint(costReplicaHz)).Err(); err != nil {
		return lab.Failed("setup", fmt.Errorf("CONFIG SET hz %d on %s: %w", costReplicaHz, lagging.Name(), err))
	}
	short := 0
	var took, paused []float64
	for i := 0; i < c.costSamples; i++ {
		began := time.Now()
		if v.lag > 0 {
			if err := redisadmin.ClientPauseAll(ctx, lagging.Addr(), v.lag); err != nil {
				return lab.Failed("nemesis", fmt.Errorf("CLIENT PAUSE %v on %s: %w", v.lag, lagging.Name(), err))
			}
		}
		d, acked, err := timedGrant(ctx, mc, fmt.Sprintf("%s:%03d", t.Key, i), v.wait, c.waitTimeout)
		if err != nil {
			return lab.Failed("grant", err)
		}
		if acked < v.wait {
			short++
		}
		took = append(took, lab.Millis(d))
		t.Input(fmt.Sprintf("wait_ms_s%03d", i), lab.Millis(d))
		// A PING blocks until the pause ends: the next sample starts on a live replica.
		if err := lc.Ping(ctx).Err(); err != nil {
			return lab.Failed("observe", fmt.Errorf("PING %s after its pause: %w", lagging.Name(), err))
		}
		paused = append(paused, lab.Millis(time.Since(began)))
	}
	t.Count(results.WaitShort, short)
	slices.Sort(took)
	slices.Sort(paused)
	t.Input("pause_p50_ms", results.Quantile(paused, 0.5))
	if v.lag > 0 && results.Quantile(paused, 0.5) < lab.Millis(v.lag) {
		return lab.NoFault(
			"the paused %s answered a PING %.1f ms (median) after its pause began, before the %v pause could end",
			lagging.Name(), results.Quantile(paused, 0.5), v.lag)
	}
	t.Prove("%d grants timed (p50 %.2f ms, max %.2f ms; %d short of %d acks); %s paused %v before each, answering again "+
		"%.1f ms (median) after the pause began",
		c.costSamples, results.Quantile(took, 0.5), slices.Max(took), short, v.wait, lagging.Name(), v.lag,
		results.Quantile(paused, 0.5))
	return nil
}

// timedGrant sends SET key PX then WAIT n in one round trip (SET alone for n = 0) and
// returns how long the replies took and how many replicas WAIT counted.
func timedGrant(ctx context.Context, c *redis.Client, key string, n int, timeout time.Duration) (time.Duration, int,
	error) {
	var wait *redis.Cmd
	start := time.Now()
	_, err := c.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, key, "x", 10*time.Second)
		if n > 0 {
			wait = p.Do(ctx, "WAIT", n, timeout.Milliseconds())
		}
		return nil
	})
	d := time.Since(start)
	if err != nil {
		return d, 0, fmt.Errorf("SET %s then WAIT %d: %w", key, n, err)
	}
	if wait == nil {
		return d, 0, nil
	}
	acked, err := wait.Int()
	return d, acked, err
}

// costSeries: per WAIT n, the pooled latency's p50 and p99 against the pause as
// measured: Redis lifts a CLIENT PAUSE only at a cron tick, so the injected length is
// a lower bound of the lag the replica had.
func costSeries(variants []*costVariant) []results.Series {
	var out []results.Series
	byWait := map[int][]*costVariant{}
	var waits []int
	for _, v := range variants {
		if _, ok := byWait[v.wait]; !ok {
			waits = append(waits, v.wait)
		}
		byWait[v.wait] = append(byWait[v.wait], v)
	}
	for _, w := range waits {
		label := fmt.Sprintf("WAIT %d", w)
		if w == 0 {
			label = "SET alone"
		}
		for _, q := range []struct {
			name string
			q    float64
		}{{"p50", 0.5}, {"p99", 0.99}} {
			s := results.Series{Name: label + " latency " + q.name, X: "lag of one of 2 replicas: its CLIENT PAUSE as " +
				"measured, from the PAUSE to its next answer (ms, median)", Y: "SET + WAIT round trip (ms)"}
			for _, v := range byWait[w] {
				if lat, pause := pooledWaits(v); len(lat) > 0 {
					s.Points = append(s.Points, results.ValuePoint(pause, results.Quantile(lat, q.q)))
				}
			}
			out = append(out, s)
		}
	}
	return out
}

// pooledWaits are every sample a variant's judged trials timed, sorted, and the
// median of those trials' measured pauses.
func pooledWaits(v *costVariant) (lat []float64, pause float64) {
	var pauses []float64
	for _, tr := range v.Trials {
		if tr.Outcome != results.Judged {
			continue
		}
		pauses = append(pauses, tr.Inputs["pause_p50_ms"])
		for name, x := range tr.Inputs {
			if strings.HasPrefix(name, "wait_ms_") {
				lat = append(lat, x)
			}
		}
	}
	slices.Sort(lat)
	slices.Sort(pauses)
	return lat, results.Quantile(pauses, 0.5)
}
