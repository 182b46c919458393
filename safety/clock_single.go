package safety

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/clocks"
)

// singleClockSkew: one Redis master holds the lock key; its wall clock jumps or runs
// off rate while A holds the lock. The single strategy believes a lease for the whole
// TTL, with no drift allowance: any forward jump larger than B's attempt, or a fast
// clock, hands B the lock while A still believes it holds it; a slow clock or a
// backward jump only keeps the key longer.
type singleClockSkew struct{}

func init() { Register(singleClockSkew{}) }

func (singleClockSkew) Name() string { return "single-clock-skew" }
func (singleClockSkew) Summary() string {
	return "a single master's clock jumps forward, back, or runs fast/slow while A holds: forward or fast hands B the lock early"
}
func (singleClockSkew) Params() []Param {
	return []Param{
		{"ttl", "1s", "the lock's TTL"},
		{"jump", "300ms", "the size of the forward and backward jumps"},
	}
}

func (s singleClockSkew) Run(ctx context.Context, env *Env) (*Report, error) {
	ttl, err := env.Params.Duration("ttl", time.Second)
	if err != nil {
		return nil, err
	}
	if ttl < 200*time.Millisecond {
		return nil, &ParamError{"ttl", env.Params["ttl"], "a duration >= 200ms"}
	}
	jump, err := env.Params.Duration("jump", 300*time.Millisecond)
	if err != nil {
		return nil, err
	}
	rep := &Report{Scenario: s.Name(), Summary: s.Summary(), Seed: env.Seed, TrialsPerVariant: env.Trials, Params: env.Params}
	for _, c := range []struct {
		name  string
		model clocks.Model
	}{
		{"jump-forward", clocks.Model{Jumps: []clocks.Jump{{After: grantEvent, By: jump}}}},
		{"jump-back", clocks.Model{Jumps: []clocks.Jump{{After: grantEvent, By: -jump}}}},
		{"rate-1.1", clocks.Model{Rate: 1.1}},
		{"rate-0.9", clocks.Model{Rate: 0.9}},
		{"true-clock", clocks.Model{}},
	} {
		race := clockRace{strategy: "single", ttl: ttl, clocks: []clocks.Model{c.model}}
		v := &Variant{Name: c.name, Measure: MeasureViolations, Params: map[string]string{"clock": c.model.String(), "ttl": ttl.String()},
			Expect:      expectFromModel(race, expectGuard),
			Description: fmt.Sprintf("the master's clock: %s (from A's grant for jumps); B retries until A's lease ends", c.model)}
		if err := clockPoint(ctx, env, s.Name(), v, race, nil); err != nil {
			return nil, err
		}
		rep.Variants = append(rep.Variants, v)
	}
	return rep, nil
}
