package clock

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
)

// kleppmannClock is the sequence from Kleppmann's 2016 critique of Redlock: A locks
// nodes 1-3 while 4 and 5 are unreachable; node 3's clock jumps forward and expires
// A's key; 4 and 5 come back; B locks 3, 4 and 5 while A still believes it holds the
// lock. (Nodes are 0-indexed here: A holds 0-2, node 2 jumps, 3 and 4 were down.)
type kleppmannClock struct{}

func kleppmannRace(client clockClient, ttl, j time.Duration) clockRace {
	models := make([]clocks.Model, 5)
	models[2] = jumpModel(j)
	return clockRace{client: client, ttl: ttl, clocks: models, unreachable: []int{3, 4}}
}

func (s kleppmannClock) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	ttl, jump := p.Duration("ttl"), p.Duration("jump")
	small := time.Duration(clocks.DefaultDrift * float64(ttl) / 4)
	var variants []clockVariant
	for _, client := range chosenRedlockClients(p) {
		variants = append(variants, kleppmannVariants(client, ttl, jump, small)...)
	}
	return runClockVariants(ctx, env, variants)
}

// kleppmannVariants are the sequence and its two controls for one Redlock client.
func kleppmannVariants(client clockClient, ttl, jump, small time.Duration) []clockVariant {
	var variants []clockVariant
	for _, c := range []struct {
		name string
		j    time.Duration
		what string
	}{
		{"jump", jump, fmt.Sprintf("node 3 jumps forward %v right after A's grant", jump)},
		{"no-jump", 0, "the same partition with true clocks: B finds node 3 taken until A's key expires"},
		{"jump-within-drift", small, fmt.Sprintf("node 3 jumps only %v, a quarter of redsync's drift allowance", small)},
	} {
		variants = append(variants, newClockVariant(client.prefix()+c.name,
			client.name+": A locks nodes 1-3 while 4, 5 are down; "+c.what+"; 4, 5 return empty; B retries until A's validity "+
				"ends",
			map[string]string{"strategy": client.name, "jump": c.j.String(), "ttl": ttl.String()},
			kleppmannRace(client, ttl, c.j), map[string]float64{"jump_ms": lab.Millis(c.j)}))
	}
	return variants
}
