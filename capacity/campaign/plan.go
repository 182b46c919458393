package campaign

import (
	"fmt"

	"github.com/lockbench/lockbench/capacity"
	"github.com/lockbench/lockbench/capacity/live"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/sweep"
	"github.com/lockbench/lockbench/updates"
)

// Plan is a checked capacity run: what to search, under which conditions.
type Plan struct {
	Config     capacity.Config
	Params     capacity.Params
	Conditions []live.Condition
	Sweep      sweep.Config // the open-loop matrix the probes are cells of
	RunID      string       // in every key's prefix; "" unless external or --run-id
}

// Check validates a resolved config into a plan, naming the first field that is wrong;
// budget is the config's SLO, which the caller parsed.
func Check(cfg capacity.Config, budget capacity.Budget) (Plan, error) {
	p := Plan{Config: cfg}
	precision, err := capacity.ParsePrecision(cfg.Precision)
	if err != nil {
		return p, err
	}
	if len(cfg.Strategies) == 0 {
		return p, fmt.Errorf("strategies: none given")
	}
	for _, st := range cfg.Strategies {
		if updates.IsLockFree(st) {
			return p, fmt.Errorf(
				"strategies: %s cannot run open loop: it is lock-free, only the update workload (closed loop) runs it", st)
		}
		if _, e := locks.TopologyFor(st); e != nil {
			return p, fmt.Errorf("strategies: %w", e)
		}
	}
	hold, err := capacity.ParseDuration("hold", cfg.Hold)
	if err != nil {
		return p, err
	}
	ttl, err := capacity.ParseDuration("ttl", cfg.TTL)
	if err != nil {
		return p, err
	}
	warmup, err := capacity.ParseDuration("warmup", cfg.Warmup)
	if err != nil {
		return p, err
	}
	minDur, err := capacity.ParseDuration("min-duration", cfg.MinDuration)
	if err != nil {
		return p, err
	}
	if minDur <= 0 {
		return p, fmt.Errorf("min-duration %q: must be > 0", cfg.MinDuration)
	}
	for field, v := range map[string]float64{"start rate": cfg.Start, "max rate": cfg.Max} {
		if !(v > 0) { // 0 would mean "the default" to the search
			return p, fmt.Errorf("%s = %v: must be a finite number > 0", field, v)
		}
	}
	p.Params = capacity.Params{Budget: budget, Precision: precision, Start: cfg.Start, Max: cfg.Max, Warmup: warmup,
		MinDuration: minDur}
	if err := p.Params.Validate(); err != nil {
		return p, err
	}
	// The matrix checks strategies, clients, keys, hold, TTL and arrival as `run` does.
	p.Sweep = sweep.Config{
		Sweeps: []sweep.Sweep{{Strategies: cfg.Strategies, Clients: cfg.Clients, Keys: cfg.Keys,
			Hold: []sweep.Duration{sweep.Duration(hold)},
			TTL:  []sweep.Duration{sweep.Duration(ttl)}, Load: "open", Rate: []float64{cfg.Start}, Arrival: cfg.Arrival}},
		Duration: sweep.Duration(minDur), Warmup: sweep.Duration(warmup), Seed: cfg.Seed,
	}
	cells, err := p.Sweep.Cells()
	if err != nil {
		return p, err
	}
	seen := map[live.Condition]bool{}
	for _, c := range cells {
		cond := live.Condition{Clients: c.Clients, Keys: c.Keys, Hold: c.Hold, TTL: c.TTL, Arrival: c.Arrival}
		if !seen[cond] {
			seen[cond] = true
			p.Conditions = append(p.Conditions, cond)
		}
	}
	return p, nil
}
