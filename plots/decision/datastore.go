package decision

import (
	"fmt"
	"math"
	"sort"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/plots"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// CostLossPoint is one way to update a row: what a correct update costs without faults
// and how many changes its writes got wrong per 1,000 proven faults.
type CostLossPoint struct {
	Strategy string // the point's label
	Series   string // its group: the guard, or "lock-free"
	CostMs   float64
	// WrongPer1000 counts updates lost, stale holders' changes applied and changes
	// applied twice, per 1,000 proven faults.
	WrongPer1000 float64
}

// CostVsLossName is the figure's file name, without extension.
const CostVsLossName = "data-cost-vs-lost-updates"

// WriteCostVsLoss draws cost per correct update against lost updates per 1,000
// faults, one colour per guard, each point labelled with its strategy, into
// dir/figures. No point measured on both sides draws nothing.
func WriteCostVsLoss(dir string, stores *backend.Catalog, points []CostLossPoint) (*plots.Figure, error) {
	if len(points) == 0 {
		return nil, nil
	}
	d, err := costVsLoss(stores, points)
	if err != nil {
		return nil, err
	}
	f, err := plots.WriteOne(dir, d)
	if err != nil {
		return nil, err
	}
	return &f, nil
}

// costVsLoss builds the figure of WriteCostVsLoss in memory.
func costVsLoss(stores *backend.Catalog, points []CostLossPoint) (plots.Drawn, error) {
	p := plots.NewPlot("Cost of one correct update vs changes gone wrong when the lock breaks",
		"p50 of one correct update, ms (8 clients, one hot row; log scale)",
		"lost + stale + doubled changes per 1,000 faults")
	// Log10 of the cost with labelled ticks, like every log axis of the suite.
	p.X.Tick.Marker = plots.LogTicks{}
	var costs []float64
	var order []string
	bySeries := map[string][]CostLossPoint{}
	for _, pt := range points {
		if _, ok := bySeries[pt.Series]; !ok {
			order = append(order, pt.Series)
		}
		bySeries[pt.Series] = append(bySeries[pt.Series], pt)
	}
	st := plots.NewStyles(stores, order)
	lift := labelLifts(points)
	for _, name := range order {
		xys := make(plotter.XYs, 0, len(bySeries[name]))
		var labels []string
		var lifts []int
		for _, pt := range bySeries[name] {
			if pt.CostMs <= 0 {
				return plots.Drawn{},
					fmt.Errorf("figure %s: %s (%s): a log axis needs a positive cost, got %v ms", CostVsLossName, pt.Strategy, name,
						pt.CostMs)
			}
			costs = append(costs, pt.CostMs)
			xys = append(xys, plotter.XY{X: math.Log10(pt.CostMs), Y: pt.WrongPer1000})
			labels = append(labels, pt.Strategy)
			lifts = append(lifts, lift[pt])
		}
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return plots.Drawn{}, fmt.Errorf("figure %s: %w", CostVsLossName, err)
		}
		sc.GlyphStyle = st.Glyph(name)
		sc.GlyphStyle.Radius = vg.Points(3.5)
		p.Add(sc)
		// Each label sits on its own line above crowded points (gonum's Labels has one
		// offset for all), so draw them one by one.
		for i := range xys {
			one, err := plotter.NewLabels(plotter.XYLabels{XYs: xys[i : i+1], Labels: labels[i : i+1]})
			if err != nil {
				return plots.Drawn{}, fmt.Errorf("figure %s: %w", CostVsLossName, err)
			}
			one.TextStyle[0].Font.Size = vg.Points(7)
			one.Offset = vg.Point{X: vg.Points(5), Y: vg.Points(float64(2 + 9*lifts[i]))}
			p.Add(one)
		}
		p.Legend.Add(name, sc)
	}
	// Zero wrong is the answer that matters: below it a margin, so that those points sit
	// above the frame, not on it.
	p.Y.Max = max(p.Y.Max*1.1, 100)
	p.Y.Min = -0.05 * p.Y.Max
	lo, hi := logRange(costs)
	p.X.Min, p.X.Max = lo, hi
	plots.PadLog(&p.X)
	var looks []plots.Look
	for _, name := range order {
		looks = append(looks, st.Look(name, false))
	}
	return plots.Drawn{Figure: plots.Figure{Name: CostVsLossName, Series: order, Looks: looks,
		Caption: "Each point is one way to update the row: x is what one correct update costs with no fault (update " +
			"workload), y how many changes went wrong (updates lost, a stale holder's change applied, a change applied twice) " +
			"per 1,000 faults the lost-updates scenario proved. Bottom is correct; a lock with a write the store does not " +
			"judge sits high, whatever it costs."}, Plot: p}, nil
}

// labelLifts gives each point how many lines up its label goes: points within a
// quarter of a decade and 30 per 1,000 of one another share a place, and each later
// one is lifted a line more.
func labelLifts(points []CostLossPoint) map[CostLossPoint]int {
	sorted := append([]CostLossPoint(nil), points...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].CostMs < sorted[j].CostMs })
	out := map[CostLossPoint]int{}
	for i, pt := range sorted {
		n := 0
		for _, prev := range sorted[:i] {
			if math.Abs(math.Log10(pt.CostMs)-math.Log10(prev.CostMs)) < 0.25 &&
				math.Abs(pt.WrongPer1000-prev.WrongPer1000) < 30 {
				n++
			}
		}
		out[pt] = n
	}
	return out
}
