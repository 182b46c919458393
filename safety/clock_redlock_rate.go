package safety

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/clocks"
)

// redlockClockRate: k of five Redlock nodes run fast by rate r, so they expire A's key
// after TTL / r of real time; B keeps trying. redsync's validity keeps drift x TTL in
// hand, so with a quorum of fast nodes the lock breaks once r > 1 / (1 - drift)
// (plus the acquire times): raising the drift factor moves the boundary up.
type redlockClockRate struct{}

func init() { Register(redlockClockRate{}) }

func (redlockClockRate) Name() string { return "redlock-clock-rate" }
func (redlockClockRate) Summary() string {
	return "k of 5 Redlock nodes run fast by rate r; B tries: breaks for k >= 3 once r > 1/(1-drift); a larger drift factor moves it"
}
func (redlockClockRate) Params() []Param {
	return []Param{
		{"ttl", "1s", "the lock's TTL (each trial lasts about this long)"},
		{"k", "3", "how many nodes run fast (comma-separated, 0 to 5)"},
		{"rates", "1.005,1.02,1.1", "the rates r to run (comma-separated, > 0)"},
		{"drifts", "0.01,0.05", "redsync drift factors to run (comma-separated; 0.01 is its default)"},
		{"search", "off", "on: also bisect the smallest breaking r for each k and drift, to 0.001"},
	}
}

func rateRace(ttl time.Duration, k int, r, drift float64) clockRace {
	return clockRace{strategy: "redlock", ttl: ttl, drift: drift, clocks: clocks.FastOn(5, k, r)}
}

func (s redlockClockRate) Run(ctx context.Context, env *Env) (*Report, error) {
	ttl, err := env.Params.Duration("ttl", time.Second)
	if err != nil {
		return nil, err
	}
	if ttl < 200*time.Millisecond {
		return nil, &ParamError{"ttl", env.Params["ttl"], "a duration >= 200ms"}
	}
	ks, err := ints(env.Params, "k", []int{3}, 0, 5)
	if err != nil {
		return nil, err
	}
	rates, err := floats(env.Params, "rates", []float64{1.005, 1.02, 1.1}, 0.01, 100)
	if err != nil {
		return nil, err
	}
	drifts, err := floats(env.Params, "drifts", []float64{0.01, 0.05}, 1e-9, 0.5)
	if err != nil {
		return nil, err
	}
	search, err := env.Params.Strings("search", []string{"off"}, []string{"on", "off"})
	if err != nil {
		return nil, err
	}
	rep := &Report{Scenario: s.Name(), Summary: s.Summary(), Seed: env.Seed, TrialsPerVariant: env.Trials, Params: env.Params}
	for _, drift := range drifts {
		for _, k := range ks {
			measured := Series{Name: fmt.Sprintf("k=%d drift=%g measured", k, drift), X: "clock rate r", Y: "share of trials with two holders"}
			model := Series{Name: fmt.Sprintf("k=%d drift=%g model", k, drift), X: "clock rate r", Y: "1 if the model allows two holders"}
			for _, r := range rates {
				race := rateRace(ttl, k, r, drift)
				p := race.predict(nominalAcquire, nominalAttempt)
				v := &Variant{Name: fmt.Sprintf("drift=%g/k=%d/r=%g", drift, k, r), Measure: MeasureViolations,
					Params:      map[string]string{"k": fmt.Sprint(k), "rate": fmt.Sprint(r), "drift": fmt.Sprint(drift), "ttl": ttl.String()},
					Expect:      expectFromModel(race, expectGuard),
					Description: fmt.Sprintf("%d of 5 nodes run at rate %g (TTL %v, drift factor %g); B retries until A's validity ends", k, r, ttl, drift)}
				if err := clockPoint(ctx, env, s.Name(), v, race, map[string]float64{"k": float64(k), "rate": r, "drift": drift}); err != nil {
					return nil, err
				}
				rep.Variants = append(rep.Variants, v)
				measured.Points = append(measured.Points, Point{X: r, Y: float64(v.TrialsWithViolation) / float64(max(v.Judged, 1)), N: v.Judged})
				model.Points = append(model.Points, Point{X: r, Y: boolFloat(p.Violation()), N: 1})
			}
			rep.Series = append(rep.Series, measured, model)
			if search[0] == "on" {
				v, err := searchSmallest(ctx, env, s.Name(), fmt.Sprintf("drift=%g/k=%d/smallest-r", drift, k), 1, 1.5, 0.001,
					func(x float64) clockRace { return rateRace(ttl, k, x, drift) },
					func(x float64) string { return fmt.Sprintf("%.4f", x) })
				if err != nil {
					return nil, err
				}
				rep.Variants = append(rep.Variants, v)
			}
		}
	}
	return rep, nil
}
