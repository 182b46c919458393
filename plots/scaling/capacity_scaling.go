package scaling

import (
	"fmt"
	"sort"
	"strings"

	"gonum.org/v1/plot/plotter"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/capacity"
	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/stats"
)

// ScalingAxis is one of the scaling presets' axes: which strategies sit where on it.
type ScalingAxis struct {
	Name, Title, XLabel string
	At                  map[string]float64  // strategy -> position on the axis
	Series              func(string) string // the line a strategy's points join
}

// ScalingAxes are the axes of deployment size the stores declare (Redis's: Redlock
// nodes 3, 5, 7; WAIT replicas 1, 2, 4, acknowledged by one replica or all), with the
// size and line each store gives its strategies on them.
func ScalingAxes(stores *backend.Catalog) []ScalingAxis {
	var out []ScalingAxis
	for _, ax := range stores.ScalingAxes() {
		at, series := map[string]float64{}, map[string]string{}
		for _, st := range stores.OnAxis(ax.Preset) {
			at[st.Name], series[st.Name] = st.Scaling.At, st.Scaling.Series
		}
		out = append(out, ScalingAxis{ax.Preset, ax.Title, ax.XLabel, at, func(s string) string { return series[s] }})
	}
	return out
}

// ScalingFigures draws p99 against each axis, one line per client count (and per
// WAIT acknowledgement), from closed-loop cells with a key per client and no
// injected latency; an axis needs at least two of its positions measured.
func ScalingFigures(dir string, groups []*stats.Group, axes []ScalingAxis) ([]plots.Figure, error) {
	var figs []plots.Figure
	for _, ax := range axes {
		lines := map[string]plotter.XYs{}
		order := map[string][2]string{} // label -> (series, zero-padded clients): legend order
		var marks []string
		positions := map[float64]bool{}
		for _, g := range groups {
			pos, ok := ax.At[g.Strategy]
			c := g.Condition
			if !ok || c.Open() || c.Network != "none" || c.Contended() || c.Hold != 0 ||
				!g.HasLatency(resultsdir.MetricAcquire) {
				continue
			}
			label := fmt.Sprintf("%s, %s", ax.Series(g.Strategy), plots.Plural(c.Clients, "client"))
			if m := capacity.FaultMark(g); m != "" {
				marks = append(marks, fmt.Sprintf("`%s` at %d clients: %s", g.Strategy, c.Clients, m))
			}
			order[label] = [2]string{ax.Series(g.Strategy), fmt.Sprintf("%06d", c.Clients)}
			lines[label] = append(lines[label],
				plotter.XY{X: pos, Y: float64(g.Latency(resultsdir.MetricAcquire, stats.P99)) / 1e6})
			positions[pos] = true
		}
		if len(positions) < 2 {
			continue
		}
		labels := make([]string, 0, len(lines))
		for l := range lines {
			labels = append(labels, l)
		}
		sort.Slice(labels, func(i, j int) bool {
			a, b := order[labels[i]], order[labels[j]]
			if a[0] != b[0] {
				return a[0] < b[0]
			}
			return a[1] < b[1]
		})
		var all []LineSeries
		for _, l := range labels {
			all = append(all, LineSeries{Label: l, Style: l, Points: lines[l]})
		}
		caption := fmt.Sprintf(
			"%s: p99 of the time to acquire, closed loop, a key per client, no injected latency, one line per client "+
				"count.", ax.Title)
		if len(marks) > 0 {
			caption += " Points with errors or drops above the threshold: " + strings.Join(marks, "; ") + "."
		}
		f, err := ScalingFigure(dir, ax.Name, ax.Title, ax.XLabel, caption, all)
		if err != nil {
			return nil, err
		}
		figs = append(figs, f)
	}
	return figs, nil
}
