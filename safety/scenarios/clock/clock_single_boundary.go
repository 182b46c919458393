package clock

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
)

// The single-master jump model (clocks.SingleJumpThreshold): a forward jump J breaks a
// hold h under a TTL exactly when J > TTL - h. Boundary mode runs jumps of factors of
// that threshold, below 1 (the model: one holder) and above (two).
const (
	mechanismMode = "mechanism"
	boundaryMode  = "boundary"
)

// runBoundary runs one forward jump per factor of TTL - hold, A leaving after hold.
func (s singleClockSkew) runBoundary(ctx context.Context, env *lab.Env, ttl, hold time.Duration,
	factors []float64) (*results.Report, error) {
	if hold >= ttl {
		return nil,
			&lab.ParamError{Name: "hold", Value: hold.String(), Want: "a duration shorter than ttl (" + ttl.String() +
				"): A leaves before its lease ends"}
	}
	threshold := clocks.SingleJumpThreshold(ttl, hold)
	var variants []clockVariant
	for _, f := range factors {
		side, what := "above", "the key expires before A leaves: B gets in while A still works"
		if f < 1 {
			side, what = "below", "the key expires only after A left: one holder"
		}
		factor := strconv.FormatFloat(f, 'g', -1, 64)
		j := time.Duration(f * float64(threshold)).Round(time.Millisecond)
		race := clockRace{client: oneMasterClient, ttl: ttl, hold: hold, clocks: []clocks.Model{jumpModel(j)}}
		variants = append(variants, newClockVariant(fmt.Sprintf("jump-%s-%sx", side, factor),
			fmt.Sprintf("the master's clock jumps forward %v (%s x TTL - hold = %v) at A's grant; A leaves after %v, B "+
				"retries until then; the model: %s", j, factor, threshold, hold, what),
			map[string]string{"clock": jumpModel(j).String(), "ttl": ttl.String(), "hold": hold.String(), "jump": j.String(),
				"side":        side,
				"jump_factor": factor, "threshold": threshold.String()},
			race, map[string]float64{"jump_ms": lab.Millis(j), "hold_ms": lab.Millis(hold)}))
	}
	return runClockVariants(ctx, env, variants)
}
