package safety

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/clocks"
)

// redlockClockJump: A holds a five-node Redlock; right after the grant k nodes' wall
// clocks jump forward by J, so those nodes expire A's key early; B keeps trying. With
// A on all five nodes B needs three of them, so k < 3 never breaks; for k >= 3 the
// lock breaks once J exceeds the validity's drift allowance (drift x TTL) plus the
// acquire times. The model's boundary is noted beside every measured point.
type redlockClockJump struct{}

func init() { Register(redlockClockJump{}) }

func (redlockClockJump) Name() string { return "redlock-clock-jump" }
func (redlockClockJump) Summary() string {
	return "k of 5 Redlock nodes jump forward J right after A's grant; B tries: breaks for k >= 3 once J > drift x TTL"
}
func (redlockClockJump) Params() []Param {
	return []Param{
		{"ttl", "1s", "the lock's TTL (each trial lasts about this long)"},
		{"k", "1,2,3", "how many nodes jump (comma-separated, 0 to 5)"},
		{"jumps", "2ms,30ms,300ms", "the jumps J to run (comma-separated durations)"},
		{"search", "off", "on: also bisect the smallest breaking J for each k, to 1 ms"},
	}
}

// nominal timings for expectations set before anything runs; measured ones go in notes.
const (
	nominalAcquire = 2 * time.Millisecond
	nominalAttempt = time.Millisecond
	expectGuard    = 10 * time.Millisecond
)

func jumpRace(ttl time.Duration, k int, j time.Duration) clockRace {
	models := make([]clocks.Model, 5)
	for i := 0; i < k; i++ {
		models[i] = clocks.Model{Jumps: []clocks.Jump{{After: grantEvent, By: j}}}
	}
	return clockRace{strategy: "redlock", ttl: ttl, clocks: models}
}

func (s redlockClockJump) Run(ctx context.Context, env *Env) (*Report, error) {
	ttl, err := env.Params.Duration("ttl", time.Second)
	if err != nil {
		return nil, err
	}
	if ttl < 200*time.Millisecond {
		return nil, &ParamError{"ttl", env.Params["ttl"], "a duration >= 200ms"}
	}
	ks, err := ints(env.Params, "k", []int{1, 2, 3}, 0, 5)
	if err != nil {
		return nil, err
	}
	jumps, err := env.Params.Durations("jumps", []time.Duration{2 * time.Millisecond, 30 * time.Millisecond, 300 * time.Millisecond})
	if err != nil {
		return nil, err
	}
	search, err := env.Params.Strings("search", []string{"off"}, []string{"on", "off"})
	if err != nil {
		return nil, err
	}
	rep := &Report{Scenario: s.Name(), Summary: s.Summary(), Seed: env.Seed, TrialsPerVariant: env.Trials, Params: env.Params}
	for _, k := range ks {
		measured := Series{Name: fmt.Sprintf("k=%d measured", k), X: "jump J (ms)", Y: "share of trials with two holders"}
		model := Series{Name: fmt.Sprintf("k=%d model", k), X: "jump J (ms)", Y: "1 if the model allows two holders"}
		for _, j := range jumps {
			r := jumpRace(ttl, k, j)
			v := &Variant{Name: fmt.Sprintf("k=%d/J=%v", k, j), Measure: MeasureViolations,
				Params:      map[string]string{"k": fmt.Sprint(k), "jump": j.String(), "ttl": ttl.String()},
				Expect:      expectFromModel(r, expectGuard),
				Description: fmt.Sprintf("%d of 5 nodes jump forward %v right after A's grant (TTL %v); B retries until A's validity ends", k, j, ttl)}
			if err := clockPoint(ctx, env, s.Name(), v, r, map[string]float64{"k": float64(k), "jump_ms": ms(j)}); err != nil {
				return nil, err
			}
			rep.Variants = append(rep.Variants, v)
			measured.Points = append(measured.Points, Point{X: ms(j), Y: float64(v.TrialsWithViolation) / float64(max(v.Judged, 1)), N: v.Judged})
			model.Points = append(model.Points, Point{X: ms(j), Y: boolFloat(r.predict(nominalAcquire, nominalAttempt).Violation()), N: 1})
		}
		rep.Series = append(rep.Series, measured, model)
		if search[0] == "on" {
			v, err := searchSmallest(ctx, env, s.Name(), fmt.Sprintf("k=%d/smallest-J", k), 0, float64(ttl), float64(time.Millisecond),
				func(x float64) clockRace { return jumpRace(ttl, k, time.Duration(x)) },
				func(x float64) string { return time.Duration(x).Round(10 * time.Microsecond).String() })
			if err != nil {
				return nil, err
			}
			rep.Variants = append(rep.Variants, v)
		}
	}
	return rep, nil
}

func boolFloat(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// searchSmallest bisects the smallest x in [lo, hi] at which some trial of race(x)
// breaks mutual exclusion, and reports it beside the model's threshold for the same
// race with the timings measured at that point. Its variant is a measurement.
func searchSmallest(ctx context.Context, env *Env, scenario, name string, lo, hi, tol float64, race func(float64) clockRace, show func(float64) string) (*Variant, error) {
	v := &Variant{Name: name, Expect: ExpectMeasured, Measure: MeasureViolations,
		Description: fmt.Sprintf("bisection over [%s, %s] to %s, %d trials per probe; breaks = any trial with two holders", show(lo), show(hi), show(tol), env.Trials)}
	var runErr error
	var aElapsed, bAttempt []time.Duration
	probe := func(x float64) bool {
		if runErr != nil {
			return false
		}
		broke := false
		for trial := 0; trial < env.Trials; trial++ {
			key := fmt.Sprintf("%s:%s:%s:%d", scenario, name, show(x), trial)
			t, err := race(x).run(ctx, env, key)
			if err != nil {
				runErr = err
				return false
			}
			aElapsed, bAttempt = append(aElapsed, t.aElapsed), append(bAttempt, t.bAttempt)
			v.Trials++
			v.Judged++
			v.Violations += t.verdict.Mutex.Violations
			if t.verdict.Mutex.Violations > 0 {
				v.TrialsWithViolation++
			}
			v.PerTrial = append(v.PerTrial, TrialOutcome{Trial: len(v.PerTrial), Inputs: map[string]float64{"x": x}, Outcome: "judged", Violations: t.verdict.Mutex.Violations})
			broke = broke || t.verdict.Mutex.Violations > 0
		}
		env.logf("%s/%s probe %s: breaks %v", scenario, name, show(x), broke)
		return broke
	}
	found, ok := clocks.SmallestBreaking(lo, hi, tol, probe)
	if runErr != nil {
		return nil, runErr
	}
	aMed, bMed := median(aElapsed), median(bAttempt)
	predicted, pok := clocks.SmallestBreaking(lo, hi, tol/1000, func(x float64) bool { return race(x).predict(aMed, bMed).Violation() })
	measured, model := "none up to "+show(hi), "none up to "+show(hi)
	if ok {
		measured = show(found)
	}
	if pok {
		model = show(predicted)
	}
	v.Params = map[string]string{"measured_smallest": measured, "model_smallest": model}
	v.Notes = appendNote(v.Notes, fmt.Sprintf("smallest breaking: measured %s, model %s (A's acquire %v, B's attempt %v)", measured, model, aMed.Round(time.Microsecond), bMed.Round(time.Microsecond)))
	return v, nil
}
