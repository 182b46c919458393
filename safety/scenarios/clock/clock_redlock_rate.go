package clock

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
)

// redlockClockRate: k of five Redlock nodes run fast by rate r, so they expire A's key
// after TTL / r of real time; B keeps trying. redsync's validity keeps drift x TTL in
// hand, so with a quorum of fast nodes the lock breaks once r > 1 / (1 - drift)
// (plus the acquire times): raising the drift factor moves the boundary up.
type redlockClockRate struct{}

func rateRace(client clockClient, ttl time.Duration, k int, r, drift float64) clockRace {
	return clockRace{client: client, ttl: ttl, drift: drift, clocks: clocks.FastOn(5, k, r)}
}

func (s redlockClockRate) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	ttl, rates := p.Duration("ttl"), p.Floats("rates")
	return eachRedlockClient(env, p, func(rep *results.Report, client clockClient) error {
		return s.runClient(ctx, env, p, rep, client, ttl, rates)
	})
}

// runClient runs every drift, k and r for one Redlock client into rep.
func (s redlockClockRate) runClient(ctx context.Context, env *lab.Env, p lab.Values, rep *results.Report,
	client clockClient, ttl time.Duration, rates []float64) error {
	pre := client.prefix()
	for _, drift := range p.Floats("drifts") {
		for _, k := range p.Ints("k") {
			var variants []clockVariant
			for _, r := range rates {
				variants = append(variants, newClockVariant(fmt.Sprintf("%sdrift=%g/k=%d/r=%g", pre, drift, k, r),
					fmt.Sprintf("%s: %d of 5 nodes run at rate %g (TTL %v, drift factor %g); B retries until A's validity ends",
						client.name, k, r, ttl, drift),
					map[string]string{"strategy": client.name, "k": fmt.Sprint(k), "rate": fmt.Sprint(r), "drift": fmt.Sprint(drift),
						"ttl": ttl.String()},
					rateRace(client, ttl, k, r, drift), map[string]float64{"k": float64(k), "rate": r, "drift": drift}))
			}
			part, err := runClockVariants(ctx, env, variants)
			if err != nil {
				return err
			}
			rep.Variants = append(rep.Variants, part.Variants...)
			rep.Series = append(rep.Series,
				measuredAndModel(fmt.Sprintf("%sk=%d drift=%g", pre, k, drift), "clock rate r", rates, variants)...)
			if p.Bool("search") {
				name := fmt.Sprintf("%sdrift=%g/k=%d/smallest-r", pre, drift, k)
				v, err := searchSmallest(ctx, env, env.Scenario(), name, 1, 1.5, 0.001,
					func(x float64) clockRace { return rateRace(client, ttl, k, x, drift) },
					func(x float64) string { return fmt.Sprintf("%.4f", x) })
				if err != nil {
					return err
				}
				rep.Variants = append(rep.Variants, v)
			}
		}
	}
	return nil
}
