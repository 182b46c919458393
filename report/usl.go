package report

import (
	"fmt"
	"strings"
	"time"

	"gonum.org/v1/plot/plotter"

	"github.com/lockbench/lockbench/capacity"
	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/stats"
)

// uslFit is one strategy's Universal Scalability Law fit under one hold and TTL.
type uslFit struct {
	strategy  string
	hold, ttl time.Duration
	points    []capacity.Point
	fit       capacity.USL
	err       error
	marked    []string // client counts left out: errors or drops above the threshold
}

// uslFits fits the law per strategy to closed-loop throughput against clients, a key
// per client, no injected latency: where the clients do not fight for keys, so the
// curve is the servers' and the client's own scaling. Groups with errors or drops
// above maxFaultShare are left out and named.
func uslFits(groups []*stats.Group) []uslFit {
	type key struct {
		strategy  string
		hold, ttl time.Duration
	}
	var order []key
	fits := map[key]*uslFit{}
	for _, g := range groups {
		c := g.Condition
		if c.Open() || c.Network != "none" || c.Contended() || g.Throughput() <= 0 {
			continue
		}
		k := key{g.Strategy, c.Hold, c.TTL}
		f, ok := fits[k]
		if !ok {
			f = &uslFit{strategy: g.Strategy, hold: c.Hold, ttl: c.TTL}
			fits[k] = f
			order = append(order, k)
		}
		if m := faultMark(g); m != "" {
			f.marked = append(f.marked, fmt.Sprintf("%d (%s)", c.Clients, m))
			continue
		}
		f.points = append(f.points, capacity.Point{N: float64(c.Clients), X: g.Throughput()})
	}
	var out []uslFit
	for _, k := range order {
		f := fits[k]
		capacity.SortPoints(f.points)
		f.fit, f.err = capacity.FitUSL(f.points)
		if f.err == nil { // fewer than four client counts is a table, not a curve
			out = append(out, *f)
		}
	}
	return out
}

// writeUSL is the section "scaling with clients": the fit's parameters, the peak it
// predicts, or why it does not predict.
func writeUSL(b *strings.Builder, fits []uslFit, figs []plots.Figure) {
	var rows []string
	for _, f := range fits {
		if f.err != nil {
			rows = append(rows, fmt.Sprintf("| `%s` | %s | %d | – | – | – | – | no fit: %v |", f.strategy, f.hold, len(f.points), f.err))
			continue
		}
		u := f.fit
		verdict := ""
		switch n, x, ok := u.Peak(); {
		case u.Poor():
			verdict = fmt.Sprintf("poor fit (residual %.1f%% > %.0f%%): no prediction", 100*u.Residual, 100*capacity.PoorFit)
		case ok:
			verdict = fmt.Sprintf("peak at %.0f clients, %s/s predicted (residual %.1f%%)", n, stats.FormatRate(x), 100*u.Residual)
		default:
			verdict = fmt.Sprintf("no peak (κ = 0): levels off toward %s/s (residual %.1f%%)", stats.FormatRate(u.Lambda/max(u.Sigma, 1e-12)), 100*u.Residual)
		}
		if len(f.marked) > 0 {
			verdict += "; left out for errors or drops: " + strings.Join(f.marked, ", ")
		}
		rows = append(rows, fmt.Sprintf("| `%s` | %s | %d | %s | %.4f | %.6f | %s |", f.strategy, f.hold, len(f.points),
			stats.FormatRate(u.Lambda), u.Sigma, u.Kappa, verdict))
	}
	if len(rows) == 0 {
		return
	}
	b.WriteString("## Scaling with clients: the Universal Scalability Law\n\n")
	b.WriteString("X(N) = λN / (1 + σ(N−1) + κN(N−1)) fitted by least squares (relative errors, σ and κ kept ≥ 0) to closed-loop throughput against clients, a key per client, no injected latency. σ is the serialized share (contention), κ the crosstalk that makes throughput fall past the peak at √((1−σ)/κ) clients. The residual is the root mean square relative error of the fit over its points.\n\n")
	b.WriteString("| strategy | hold | points | λ (1 client, /s) | σ | κ | peak |\n|---|---|---:|---:|---:|---:|---|\n")
	b.WriteString(strings.Join(rows, "\n") + "\n\n")
	for _, f := range figs {
		fmt.Fprintf(b, "![%s](%s)\n\n%s\n\n", f.Name, f.Files[0], f.Caption)
	}
}

// uslFigures draws one figure per hold and TTL with every strategy that has a fit.
func uslFigures(dir string, fits []uslFit) ([]plots.Figure, error) {
	type cond struct{ hold, ttl time.Duration }
	var order []cond
	sets := map[cond][]plots.USLSeries{}
	for _, f := range fits {
		if f.err != nil {
			continue
		}
		c := cond{f.hold, f.ttl}
		if _, ok := sets[c]; !ok {
			order = append(order, c)
		}
		s := plots.USLSeries{Strategy: f.strategy}
		for _, p := range f.points {
			s.Points = append(s.Points, plotter.XY{X: p.N, Y: p.X})
		}
		if f.fit.Poor() {
			s.Label = fmt.Sprintf("%s (poor fit, %.0f%%)", f.strategy, 100*f.fit.Residual)
		} else {
			u := f.fit
			s.Fit = u.At
			s.Label = fmt.Sprintf("%s σ=%.3f κ=%.2g", f.strategy, u.Sigma, u.Kappa)
		}
		sets[c] = append(sets[c], s)
	}
	var out []plots.Figure
	for i, c := range order {
		name := "throughput-usl"
		if len(order) > 1 {
			name = fmt.Sprintf("throughput-usl-%d_hold=%s", i+1, strings.ReplaceAll(c.hold.String(), "µ", "u"))
		}
		f, err := plots.USLFigure(dir, name, fmt.Sprintf("a key per client, hold %s, TTL %s", c.hold, c.ttl), sets[c])
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}
