package clock

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
)

// redlockClockJump: A holds a five-node Redlock; right after the grant k nodes' wall
// clocks jump forward by J, so those nodes expire A's key early; B keeps trying. With
// A on all five nodes B needs three of them, so k < 3 never breaks; for k >= 3 the
// lock breaks once J exceeds the validity's drift allowance (drift x TTL) plus the
// acquire times. The model's boundary is noted beside every measured point.
type redlockClockJump struct{}

func jumpRace(client clockClient, ttl time.Duration, k int, j time.Duration) clockRace {
	models := make([]clocks.Model, 5)
	for i := 0; i < k; i++ {
		models[i] = jumpModel(j)
	}
	return clockRace{client: client, ttl: ttl, clocks: models}
}

func (s redlockClockJump) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	ttl, jumps := p.Duration("ttl"), p.Durations("jumps")
	return eachRedlockClient(env, p, func(rep *results.Report, client clockClient) error {
		return s.runClient(ctx, env, p, rep, client, ttl, jumps)
	})
}

// runClient runs every k and J for one Redlock client into rep.
func (s redlockClockJump) runClient(ctx context.Context, env *lab.Env, p lab.Values, rep *results.Report,
	client clockClient, ttl time.Duration, jumps []time.Duration) error {
	pre := client.prefix()
	for _, k := range p.Ints("k") {
		var variants []clockVariant
		for _, j := range jumps {
			variants = append(variants, newClockVariant(fmt.Sprintf("%sk=%d/J=%v", pre, k, j),
				fmt.Sprintf(
					"%s: %d of 5 nodes jump forward %v right after A's grant (TTL %v); B retries until A's validity ends",
					client.name, k, j, ttl),
				map[string]string{"strategy": client.name, "k": fmt.Sprint(k), "jump": j.String(), "ttl": ttl.String()},
				jumpRace(client, ttl, k, j), map[string]float64{"k": float64(k), "jump_ms": lab.Millis(j)}))
		}
		part, err := runClockVariants(ctx, env, variants)
		if err != nil {
			return err
		}
		rep.Variants = append(rep.Variants, part.Variants...)
		xs := make([]float64, len(jumps))
		for i, j := range jumps {
			xs[i] = lab.Millis(j)
		}
		rep.Series = append(rep.Series, measuredAndModel(fmt.Sprintf("%sk=%d", pre, k), "jump J (ms)", xs, variants)...)
		if p.Bool("search") {
			v,
				err := searchSmallest(ctx, env, env.Scenario(), fmt.Sprintf("%sk=%d/smallest-J", pre, k), 0, float64(ttl),
				float64(time.Millisecond),
				func(x float64) clockRace { return jumpRace(client, ttl, k, time.Duration(x)) },
				func(x float64) string { return time.Duration(x).Round(10 * time.Microsecond).String() })
			if err != nil {
				return err
			}
			rep.Variants = append(rep.Variants, v)
		}
	}
	return nil
}
