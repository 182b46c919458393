package scaling

import (
	"fmt"
	"strings"
	"time"

	"gonum.org/v1/plot/plotter"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/capacity"
	"github.com/lockbench/lockbench/plots"
)

// USLFigures draws one figure per hold and TTL with every strategy that has a fit,
// named throughput-usl (or throughput-usl-N_hold=H when the fits span several holds).
func USLFigures(dir string, stores *backend.Catalog, fits []capacity.StrategyFit) ([]plots.Figure, error) {
	type cond struct{ hold, ttl time.Duration }
	var order []cond
	sets := map[cond][]USLSeries{}
	for _, f := range fits {
		if f.Err != nil {
			continue
		}
		c := cond{f.Hold, f.TTL}
		if _, ok := sets[c]; !ok {
			order = append(order, c)
		}
		s := USLSeries{Strategy: f.Strategy}
		for _, p := range f.Points {
			s.Points = append(s.Points, plotter.XY{X: p.N, Y: p.X})
		}
		if f.Fit.Poor() {
			s.Label = fmt.Sprintf("%s (poor fit, %.0f%%)", f.Strategy, 100*f.Fit.Residual)
		} else {
			u := f.Fit
			s.Fit = u.At
			s.Label = fmt.Sprintf("%s σ=%.3f κ=%.2g", f.Strategy, u.Sigma, u.Kappa)
		}
		sets[c] = append(sets[c], s)
	}
	var out []plots.Figure
	for i, c := range order {
		name := "throughput-usl"
		if len(order) > 1 {
			name = fmt.Sprintf("throughput-usl-%d_hold=%s", i+1, strings.ReplaceAll(c.hold.String(), "µ", "u"))
		}
		f, err := USLFigure(dir, stores, name, fmt.Sprintf("a key per client, hold %s, TTL %s", c.hold, c.ttl), sets[c])
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}
