package safety

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/clocks"
)

// kleppmannClock is the sequence from Kleppmann's 2016 critique of Redlock: A locks
// nodes 1-3 while 4 and 5 are unreachable; node 3's clock jumps forward and expires
// A's key; 4 and 5 come back; B locks 3, 4 and 5 while A still believes it holds the
// lock. (Nodes are 0-indexed here: A holds 0-2, node 2 jumps, 3 and 4 were down.)
type kleppmannClock struct{}

func init() { Register(kleppmannClock{}) }

func (kleppmannClock) Name() string { return "redlock-kleppmann" }
func (kleppmannClock) Summary() string {
	return "Kleppmann 2016: A locks nodes 1-3 (4, 5 unreachable), node 3's clock jumps, B locks 3-5 while A still holds"
}
func (kleppmannClock) Params() []Param {
	return []Param{
		{"ttl", "1s", "the lock's TTL"},
		{"jump", "500ms", "how far node 3's clock jumps forward right after A's grant"},
	}
}

func kleppmannRace(ttl, j time.Duration) clockRace {
	models := make([]clocks.Model, 5)
	models[2] = clocks.Model{Jumps: []clocks.Jump{{After: grantEvent, By: j}}}
	return clockRace{strategy: "redlock", ttl: ttl, clocks: models, unreachable: []int{3, 4}}
}

func (s kleppmannClock) Run(ctx context.Context, env *Env) (*Report, error) {
	ttl, err := env.Params.Duration("ttl", time.Second)
	if err != nil {
		return nil, err
	}
	if ttl < 200*time.Millisecond {
		return nil, &ParamError{"ttl", env.Params["ttl"], "a duration >= 200ms"}
	}
	jump, err := env.Params.Duration("jump", 500*time.Millisecond)
	if err != nil {
		return nil, err
	}
	rep := &Report{Scenario: s.Name(), Summary: s.Summary(), Seed: env.Seed, TrialsPerVariant: env.Trials, Params: env.Params}
	small := time.Duration(clocks.DefaultDrift * float64(ttl) / 4)
	for _, c := range []struct {
		name string
		j    time.Duration
		what string
	}{
		{"jump", jump, fmt.Sprintf("node 3 jumps forward %v right after A's grant", jump)},
		{"no-jump", 0, "the same partition with true clocks: B finds node 3 taken until A's key expires"},
		{"jump-within-drift", small, fmt.Sprintf("node 3 jumps only %v, a quarter of redsync's drift allowance", small)},
	} {
		race := kleppmannRace(ttl, c.j)
		v := &Variant{Name: c.name, Measure: MeasureViolations, Params: map[string]string{"jump": c.j.String(), "ttl": ttl.String()},
			Expect:      expectFromModel(race, expectGuard),
			Description: "A locks nodes 1-3 while 4, 5 are down; " + c.what + "; 4, 5 return empty; B retries until A's validity ends"}
		if err := clockPoint(ctx, env, s.Name(), v, race, map[string]float64{"jump_ms": ms(c.j)}); err != nil {
			return nil, err
		}
		rep.Variants = append(rep.Variants, v)
	}
	return rep, nil
}
