package nemesis

import (
	"context"
	"fmt"
	"time"
)

// Step is one fault injected After the schedule starts.
type Step struct {
	After  time.Duration
	Fault  string // a registered fault name
	Target Target
}

// RunSchedule injects each step at its offset from now, in the order given (offsets
// must not decrease), and returns the heals of the faults injected so far, in order.
// It stops at the first error or when ctx ends; the caller heals what was returned.
func RunSchedule(ctx context.Context, steps []Step) ([]Heal, error) {
	for i := 1; i < len(steps); i++ {
		if steps[i].After < steps[i-1].After {
			return nil,
				fmt.Errorf("schedule step %d (%s at %v) comes before step %d (%v)", i, steps[i].Fault, steps[i].After, i-1,
					steps[i-1].After)
		}
	}
	start := time.Now()
	var heals []Heal
	for _, s := range steps {
		select {
		case <-ctx.Done():
			return heals, ctx.Err()
		case <-time.After(time.Until(start.Add(s.After))):
		}
		heal, err := Inject(ctx, s.Fault, s.Target)
		if err != nil {
			return heals, err
		}
		heals = append(heals, heal)
	}
	return heals, nil
}

// HealAll undoes heals in reverse order and returns every error.
func HealAll(ctx context.Context, heals []Heal) error {
	var errs []error
	for i := len(heals) - 1; i >= 0; i-- {
		if err := heals[i](ctx); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("heal: %v", errs)
	}
	return nil
}
