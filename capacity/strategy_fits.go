package capacity

import (
	"fmt"
	"time"

	"github.com/lockbench/lockbench/stats"
)

// StrategyFit is one strategy's Universal Scalability Law fit under one hold and TTL.
type StrategyFit struct {
	Strategy  string
	Hold, TTL time.Duration
	Points    []Point
	Fit       USL
	Err       error
	Marked    []string // client counts left out: errors or drops above the threshold
}

// FitStrategies fits the law per strategy to closed-loop throughput against clients, a
// key per client, no injected latency: where the clients do not fight for keys, so the
// curve is the servers' and the client's own scaling. Groups with errors or drops
// above MaxFaultShare are left out and named. Only fits that succeeded are returned:
// fewer than four client counts is a table, not a curve.
func FitStrategies(groups []*stats.Group) []StrategyFit {
	type key struct {
		strategy  string
		hold, ttl time.Duration
	}
	var order []key
	fits := map[key]*StrategyFit{}
	for _, g := range groups {
		c := g.Condition
		if c.Open() || c.Network != "none" || c.Contended() || g.Throughput() <= 0 {
			continue
		}
		k := key{g.Strategy, c.Hold, c.TTL}
		f, ok := fits[k]
		if !ok {
			f = &StrategyFit{Strategy: g.Strategy, Hold: c.Hold, TTL: c.TTL}
			fits[k] = f
			order = append(order, k)
		}
		if m := FaultMark(g); m != "" {
			f.Marked = append(f.Marked, fmt.Sprintf("%d (%s)", c.Clients, m))
			continue
		}
		f.Points = append(f.Points, Point{N: float64(c.Clients), X: g.Throughput()})
	}
	var out []StrategyFit
	for _, k := range order {
		f := fits[k]
		SortPoints(f.Points)
		f.Fit, f.Err = FitUSL(f.Points)
		if f.Err == nil {
			out = append(out, *f)
		}
	}
	return out
}
