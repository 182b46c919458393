package clock

import (
	"context"
	"fmt"

	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
)

// singleClockSkew: one Redis master holds the lock key; its wall clock jumps or runs
// off rate while A holds the lock. The single strategy believes a lease for the whole
// TTL, with no drift allowance: any forward jump larger than B's attempt, or a fast
// clock, hands B the lock while A still believes it holds it; a slow clock or a
// backward jump only keeps the key longer. Its boundary mode checks the single-master
// jump model at a TTL and hold: A leaves after hold, and a jump just below TTL - hold
// frees the key only after that, one just above before (clock_single_boundary.go).
type singleClockSkew struct{}

func (s singleClockSkew) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	ttl, jump := p.Duration("ttl"), p.Duration("jump")
	if p.String("mode") == boundaryMode {
		return s.runBoundary(ctx, env, ttl, p.Duration("hold"), p.Floats("boundary-factors"))
	}
	var variants []clockVariant
	for _, c := range []struct {
		name  string
		model clocks.Model
	}{
		{"jump-forward", jumpModel(jump)},
		{"jump-back", jumpModel(-jump)},
		{"rate-1.1", clocks.Model{Rate: 1.1}},
		{"rate-0.9", clocks.Model{Rate: 0.9}},
		{"true-clock", clocks.Model{}},
	} {
		race := clockRace{client: oneMasterClient, ttl: ttl, clocks: []clocks.Model{c.model}}
		variants = append(variants, newClockVariant(c.name,
			fmt.Sprintf("the master's clock: %s (from A's grant for jumps); B retries until A's lease ends", c.model),
			map[string]string{"clock": c.model.String(), "ttl": ttl.String()}, race, nil))
	}
	return runClockVariants(ctx, env, variants)
}
