package lag

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
)

// replicationLag: the loss window itself. failover-loss loses a lock when the master
// dies before a replica applied the grant; how long that takes is the replication
// lag. Each probe is a SET acknowledged by the master, then each replica polled until
// the value is visible; under a background write rate from idle to saturation.
type replicationLag struct{}

// pathParam is a file path, taken as typed; "" means none.
func pathParam(name, def, help string) lab.Param {
	return lab.Param{Name: name, Default: def, Help: help, Parse: func(s string) (any, string) {
		if strings.ContainsRune(s, 0) {
			return nil, "a file path"
		}
		return strings.TrimSpace(s), ""
	}}
}

// lagVariant is one background write rate.
type lagVariant struct {
	lab.Variant
	rate     int
	saturate bool
}

// lagConfig is the scenario's params, read once.
type lagConfig struct {
	probes                        int
	interval, pollTimeout, warmup time.Duration
	failoverResults               string
}

func (s replicationLag) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	c := lagConfig{probes: p.Int("probes"), interval: p.Duration("probe-interval"),
		pollTimeout: p.Duration("poll-timeout"),
		warmup:      p.Duration("warmup"), failoverResults: p.String("failover-results")}
	var overlay []results.Series
	if c.failoverResults != "" {
		var err error
		if overlay, err = failoverOverlay(c.failoverResults); err != nil {
			return nil, &lab.ParamError{Name: "failover-results", Value: c.failoverResults, Want: "a failover-loss output " +
				"folder or results.json (" + err.Error() + ")"}
		}
	}
	var variants []*lagVariant
	for _, rate := range p.Ints("rates") {
		variants = append(variants, lagVariantOf(c, rate, false))
	}
	if p.Bool("saturate") {
		variants = append(variants, lagVariantOf(c, 0, true))
	}
	topo, err := env.StartTopology(ctx, backend.Spec{Kind: topologies.Replicated, Replicas: 2})
	if err != nil {
		return nil, err
	}
	defer topo.Close()
	rep, err := lab.RunTrials(ctx, env, variants, func(ctx context.Context, v *lagVariant, t *lab.Trial) error {
		ctx, cancel := context.WithTimeout(ctx, time.Duration(c.probes)*(c.interval+c.pollTimeout)+c.warmup+30*time.Second)
		defer cancel()
		return lagTrial(ctx, topo, c, v, t)
	})
	if err != nil {
		return nil, err
	}
	rep.Series = append(lagSeries(variants), overlay...)
	return rep, nil
}

func lagVariantOf(c lagConfig, rate int, saturate bool) *lagVariant {
	name, load := fmt.Sprintf("rate-%d", rate), fmt.Sprintf("%d writes/s in the background", rate)
	switch {
	case saturate:
		name, load = "saturate",
			fmt.Sprintf("%d writers pipelining %d SETs per round trip as fast as they can", loadWriters, loadBatch)
	case rate == 0:
		load = "no background writes"
	}
	return &lagVariant{Variant: lab.Variant{Variant: &results.Variant{
		Name: name,
		Description: fmt.Sprintf("master and 2 replicas; %s; %d probes per trial: SET on the master, then each replica "+
			"polled (GET, back to back) until the value is visible", load, c.probes),
		Params: map[string]string{"rate": fmt.Sprint(rate), "saturate": fmt.Sprint(saturate),
			"probes": fmt.Sprint(c.probes)},
		Measure: results.ProbesUnseen,
		Claims:  []results.Claim{results.Holds(results.ProbesUnseen)},
	}}, rate: rate, saturate: saturate}
}

// lagTrial runs the background load, then the probes; each replica's lag for each
// probe is an input (lag_ms_r<replica>_p<probe>), so that the series can pool them.
func lagTrial(ctx context.Context, topo topologies.Topology, c lagConfig, v *lagVariant, t *lab.Trial) error {
	master := topo.Masters()[0]
	replicas := topo.Replicas()
	mc := lab.PlainClient(master.Addr())
	defer mc.Close()
	rcs := make([]*redis.Client, len(replicas))
	for i, r := range replicas {
		rcs[i] = lab.PlainClient(r.Addr())
		defer rcs[i].Close()
		if err := rcs[i].Ping(ctx).Err(); err != nil {
			return lab.Failed("setup", fmt.Errorf("PING replica %s: %w", r.Name(), err))
		}
	}
	load := startLoad(ctx, master.Addr(), v.rate, v.saturate)
	if err := lab.Sleep(ctx, c.warmup); err != nil {
		load.stop()
		return err
	}
	unseen := 0
	var worst time.Duration
	for n := 0; n < c.probes; n++ {
		key, value := fmt.Sprintf("%s:probe:%d", t.Key, n), fmt.Sprint(n)
		if err := mc.Set(ctx, key, value, time.Minute).Err(); err != nil {
			load.stop()
			return lab.Failed("probe", fmt.Errorf("SET %s on the master: %w", key, err))
		}
		acked := time.Now()
		lags, err := pollReplicas(ctx, rcs, key, value, acked, c.pollTimeout)
		if err != nil {
			load.stop()
			return err
		}
		for i, lag := range lags {
			if lag < 0 {
				unseen++
				continue
			}
			worst = max(worst, lag)
			t.Input(fmt.Sprintf("lag_ms_r%d_p%03d", i, n), lab.Millis(lag))
		}
		if err := lab.Sleep(ctx, c.interval); err != nil {
			load.stop()
			return err
		}
	}
	rate, err := load.stop()
	if err != nil {
		return lab.Failed("load", err)
	}
	t.Input("load_per_s", rate)
	t.Count(results.ProbesUnseen, unseen)
	if !v.saturate && rate < 0.8*float64(v.rate) {
		return lab.NoFault("the background load reached %.0f writes/s, short of %d", rate, v.rate)
	}
	t.Prove("%d probes read back on %d replicas (%d unseen within %v, worst lag %v) under %.0f background writes/s",
		c.probes, len(replicas), unseen, c.pollTimeout, worst.Round(time.Microsecond), rate)
	return nil
}

// pollReplicas polls each replica until key holds value, and returns each one's time
// from acked to the read that saw it; -1 for a replica that did not show it in time.
func pollReplicas(ctx context.Context, rcs []*redis.Client, key, value string, acked time.Time,
	timeout time.Duration) ([]time.Duration, error) {
	lags := make([]time.Duration, len(rcs))
	errs := make([]error, len(rcs))
	var wg sync.WaitGroup
	for i, rc := range rcs {
		wg.Add(1)
		go func(i int, rc *redis.Client) {
			defer wg.Done()
			deadline := acked.Add(timeout)
			for {
				got, err := rc.Get(ctx, key).Result()
				seen := time.Now()
				switch {
				case err == nil && got == value:
					lags[i] = seen.Sub(acked)
					return
				case err != nil && !errors.Is(err, redis.Nil):
					errs[i] = lab.Failed("observe", fmt.Errorf("GET %s on replica %d: %w", key, i, err))
					return
				case seen.After(deadline):
					lags[i] = -1
					return
				}
			}
		}(i, rc)
	}
	wg.Wait()
	return lags, errors.Join(errs...)
}
