package ttl

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
)

// ttlTradeoff: the write-up's step 3, the price of a TTL. A short TTL runs out under
// a holder whose work takes longer (drawn from a hold-time distribution); a long one
// keeps the lock blocked for as long after its holder crashes. Both sides are measured
// on one Redis: holders that work a drawn hold and read their key at the end, and
// holders that crash while another client polls for the lock. A watchdog removes the
// first cost whatever the TTL, and dies with its holder, so it keeps the second at TTL.
type ttlTradeoff struct{}

// ttlConfig is the scenario's params, read once.
type ttlConfig struct {
	dists             []holdDistribution
	ttls              []time.Duration
	poll              time.Duration
	crashAfterExtends int
	hold, holdMax     time.Duration
}

// minTTL keeps the watchdog's period (TTL/3) at a millisecond or more.
const minTTL = 3 * time.Millisecond

func readTTLConfig(p lab.Values) (ttlConfig, error) {
	c := ttlConfig{ttls: p.Durations("ttls"), poll: p.Duration("poll"), crashAfterExtends: p.Int("crash-after-extends"),
		hold: p.Duration("hold"), holdMax: p.Duration("hold-max")}
	for _, ttl := range c.ttls {
		if ttl < minTTL {
			return c, &lab.ParamError{Name: "ttls", Value: ttl.String(), Want: fmt.Sprintf(
				"TTLs of at least %v (the watchdog extends every TTL/3)", minTTL)}
		}
	}
	if c.holdMax < c.hold {
		return c, &lab.ParamError{Name: "hold-max", Value: c.holdMax.String(), Want: fmt.Sprintf(
			"at least the mean hold %v", c.hold)}
	}
	c.dists = holdDistributions(p.Strings("distributions"), c.hold, p.Float("lognormal-sigma"), p.Float("pareto-alpha"),
		c.holdMax)
	return c, nil
}

// ttlVariant is one TTL with or without a watchdog, either under a hold distribution
// (dist set: the expiry side) or crashing (dist nil: the blocked side).
type ttlVariant struct {
	lab.Variant
	dist     *holdDistribution
	ttl      time.Duration
	watchdog bool
}

func (s ttlTradeoff) Run(ctx context.Context, env *lab.Env, p lab.Values) (*results.Report, error) {
	c, err := readTTLConfig(p)
	if err != nil {
		return nil, err
	}
	topo, err := env.StartTopology(ctx, backend.Spec{Kind: topologies.Single})
	if err != nil {
		return nil, err
	}
	defer topo.Close()
	variants := c.variants()
	rep, err := lab.RunTrials(ctx, env, variants, func(ctx context.Context, v *ttlVariant, t *lab.Trial) error {
		ctx, cancel := context.WithTimeout(ctx, 10*(v.ttl+c.holdMax)+30*time.Second)
		defer cancel()
		if v.dist == nil {
			return crashTrial(ctx, topo, c, v, t)
		}
		return expiryTrial(ctx, topo, v, t)
	})
	if err != nil {
		return nil, err
	}
	rep.Series = ttlSeries(c, variants)
	return rep, nil
}

func (c ttlConfig) variants() []*ttlVariant {
	var out []*ttlVariant
	for i := range c.dists {
		d := &c.dists[i]
		for _, watchdog := range []bool{false, true} {
			for _, ttl := range c.ttls {
				out = append(out, c.expiryVariant(d, ttl, watchdog))
			}
		}
	}
	for _, watchdog := range []bool{false, true} {
		for _, ttl := range c.ttls {
			out = append(out, c.crashVariant(ttl, watchdog))
		}
	}
	return out
}

func withWatchdog(watchdog bool) string {
	if watchdog {
		return "-watchdog"
	}
	return ""
}

func (c ttlConfig) expiryVariant(d *holdDistribution, ttl time.Duration, watchdog bool) *ttlVariant {
	what := fmt.Sprintf("SET NX PX %v; A works a hold drawn from %s (at most %v), then reads its key", ttl, d.describe,
		c.holdMax)
	if watchdog {
		what += "; a watchdog extends to the TTL every TTL/3 while A works"
	} else {
		what += "; a hold past TTL + " + expiryReadMargin.String() + " reads the key then, before A is done"
	}
	return &ttlVariant{Variant: lab.Variant{Variant: &results.Variant{
		Name:        fmt.Sprintf("%s/ttl-%dms%s", d.name, ttl.Milliseconds(), withWatchdog(watchdog)),
		Description: what,
		Params: map[string]string{"distribution": d.name, "ttl": ttl.String(), "watchdog": fmt.Sprint(watchdog),
			"hold": c.hold.String()},
		Measure: results.ExpiredMidWork,
		Claims:  expiryClaims(d, ttl, watchdog),
	}}, dist: d, ttl: ttl, watchdog: watchdog}
}

// expiryClaims: a watchdog that ran on time never lets the key expire under a live
// holder (one that ran late, the process starved for a TTL, is a pause); a TTL below
// every hold the distribution can draw always expires; a constant hold well inside
// the TTL never does. The rest are points of the sweep.
func expiryClaims(d *holdDistribution, ttl time.Duration, watchdog bool) []results.Claim {
	switch {
	case watchdog:
		return []results.Claim{results.Holds(results.ExpiredOnTime)}
	case d.floor > 0 && ttl+2*expiryReadMargin <= d.floor:
		return []results.Claim{results.Always(results.ExpiredMidWork)}
	case d.name == "constant" && ttl >= d.floor*3/2 && ttl-d.floor >= 20*time.Millisecond:
		return []results.Claim{results.Holds(results.ExpiredMidWork)}
	}
	return nil
}

func (c ttlConfig) crashVariant(ttl time.Duration, watchdog bool) *ttlVariant {
	what := fmt.Sprintf(
		"SET NX PX %v; A crashes right after its grant replied; B retries every %v and is granted once the key "+
			"expires", ttl, c.poll)
	if watchdog {
		what = fmt.Sprintf("SET NX PX %v with a watchdog (extend every TTL/3); A crashes right after its extension #%d "+
			"replied, its watchdog with it; B retries every %v", ttl, c.crashAfterExtends, c.poll)
	}
	return &ttlVariant{Variant: lab.Variant{Variant: &results.Variant{
		Name:        fmt.Sprintf("crash/ttl-%dms%s", ttl.Milliseconds(), withWatchdog(watchdog)),
		Description: what,
		Params:      map[string]string{"ttl": ttl.String(), "watchdog": fmt.Sprint(watchdog), "poll": c.poll.String()},
		Measure:     results.BlockedShort,
		Claims:      []results.Claim{results.Holds(results.BlockedShort), results.Always(results.SecondGranted)},
	}}, ttl: ttl, watchdog: watchdog}
}
