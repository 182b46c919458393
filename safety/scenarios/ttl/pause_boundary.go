package ttl

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/history"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
)

// The pause model (the ADR's): a holder that stops breaks its lock exactly when the
// stop outlasts the lease it has left. Boundary mode checks that rule from both sides
// at one TTL: an unfenced holder stops for a factor below 1 of the lease left (the
// model: one holder, always) and above 1 (two holders, always).
const (
	mechanismMode = "mechanism"
	boundaryMode  = "boundary"
)

// boundarySide is which side of the boundary a factor of the lease left is on.
func boundarySide(f float64) string {
	if f < 1 {
		return "below"
	}
	return "above"
}

// stopSize is a boundary variant's stop: factor x the lease A has left once it has
// worked pauseAt; side says which side of the lease's end the model puts A's write.
type stopSize struct {
	side    string
	factor  float64
	pauseAt time.Duration
}

// boundaryVariants are one unfenced, watchdog-less holder per factor.
func boundaryVariants(st lab.Store, ttl time.Duration, factors []float64, pauseAt time.Duration) []pauseVariant {
	name := st.Strategy()
	var out []pauseVariant
	for _, f := range factors {
		side, factor := boundarySide(f), strconv.FormatFloat(f, 'g', -1, 64)
		claims := []results.Claim{results.Always(results.Violations), results.Always(results.StaleAccepted)}
		what := "its lease runs out during the stop: B takes the lock, A's stale write lands after B's"
		if side == "below" {
			claims = []results.Claim{results.Holds(results.Violations), results.Holds(results.StaleAccepted)}
			what = "the stop ends inside its lease: B is refused throughout, one holder"
		}
		v := lab.Variant{Variant: &results.Variant{Name: fmt.Sprintf("%s/%s-lease-%sx", name, side, factor),
			Measure: results.Violations, Claims: claims,
			Params: map[string]string{"strategy": name, "fence": st.FenceSource(), "side": side, "pause_factor": factor,
				"pause_at": pauseAt.String(), "ttl": ttl.String()},
			Description: fmt.Sprintf(
				"%s: A works %v, then stops for %s x the lease it has left (no watchdog, unfenced resource); %s", name, pauseAt,
				factor, what)}}
		out = append(out, pauseVariant{Variant: v, store: st, stops: true, boundary: &stopSize{side, f, pauseAt}})
	}
	return out
}

// stopInsideLease has A work v.pauseAt inside its lease, then sizes its stop on the
// lease it has left.
func (v *stopSize) stopInsideLease(ctx context.Context, t *lab.Trial, lease locks.Lease) (time.Duration, error) {
	if err := lab.Sleep(ctx, v.pauseAt); err != nil {
		return 0, err
	}
	left := time.Until(lease.ValidUntil)
	if left <= 0 {
		return 0, lab.NoFault("A's lease ran out %v into its work, before it could stop inside it", v.pauseAt)
	}
	pause := time.Duration(v.factor * float64(left))
	t.Input("lease_left_at_stop_ms", lab.Millis(left))
	t.Input("pause_ms", lab.Millis(pause))
	return pause, nil
}

// prove judges a boundary trial only once the resource shows A away for at least its
// work and its stop, on the side of the lease's end the variant is for.
func (v *stopSize) prove(t *lab.Trial, lease locks.Lease, pause time.Duration) error {
	entered, wrote, err := awayAtResource(t)
	if err != nil {
		return err
	}
	away, leaseLeft := wrote.Sub(entered), lease.ValidUntil.Sub(entered)
	t.Input("away_ms", lab.Millis(away))
	t.Input("lease_left_ms", lab.Millis(leaseLeft))
	r := func(d time.Duration) time.Duration { return d.Round(time.Millisecond) }
	if away < v.pauseAt+pause {
		return lab.NoFault(
			"A wrote %v after entering, before its %v of work and %v stop could have ended: the stop did not happen", r(away),
			v.pauseAt, r(pause))
	}
	past := away > leaseLeft
	if past != (v.side == "above") {
		where := "inside"
		if past {
			where = "past"
		}
		return lab.NoFault(
			"A was away %v, %s the %v left of its lease: not a %s-boundary trial (stop %v, %g x the lease left at its "+
				"start)", r(away), where, r(leaseLeft), v.side, r(pause), v.factor)
	}
	gap := leaseLeft - away
	when := "before"
	if past {
		gap, when = away-leaseLeft, "after"
	}
	t.Prove("A stopped %v, %v into its lease (%g x the lease it had left), and wrote %v %s its lease ended (granted %v)",
		r(pause), v.pauseAt, v.factor, r(gap), when, r(lease.ValidUntil.Sub(lease.Start)))
	return nil
}

// bTookIt judges an above-boundary trial only once B was inside before A wrote: A's
// lease ran out, but a B that missed the short gap before A wrote (its attempts, a
// replica's acknowledgement, or its entry after a grant, late on a busy machine) shows
// nothing of the boundary.
func (v *stopSize) bTookIt(bInside bool) error {
	if v.side != "above" || bInside {
		return nil
	}
	return lab.NoFault("A's lease ran out during its stop, but B was not inside before A wrote: B was late on a " +
		"busy machine")
}

// enteredBeforeWrite says whether, in events, who entered the resource before A's first
// write there.
func enteredBeforeWrite(events []history.Event, who string) bool {
	entered, wrote := firstAtResource(events, who, history.Entered), firstAtResource(events, "A", history.Write)
	return !entered.IsZero() && !wrote.IsZero() && entered.Before(wrote)
}
