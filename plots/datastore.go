package plots

import (
	"fmt"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/lockbench/lockbench/resultsdir"
)

// CostLossPoint is one way to update a row: what a correct update costs without faults
// and how many updates its writes lost per 1,000 proven faults.
type CostLossPoint struct {
	Strategy    string // the point's label
	Series      string // its group: the guard, or "lock-free"
	CostMs      float64
	LostPer1000 float64
}

// CostVsLossName is the figure's file name, without extension.
const CostVsLossName = "data-cost-vs-lost-updates"

// WriteCostVsLoss draws cost per correct update against lost updates per 1,000
// faults, one colour per guard, each point labelled with its strategy, into
// dir/figures. No point measured on both sides draws nothing.
func WriteCostVsLoss(dir string, points []CostLossPoint) (*Figure, error) {
	if len(points) == 0 {
		return nil, nil
	}
	p := newPlot("Cost of one correct update vs updates lost when the lock breaks",
		"p50 of one correct update, ms (8 clients, one hot row; log scale)", "lost updates per 1,000 proven faults")
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	var order []string
	bySeries := map[string][]CostLossPoint{}
	for _, pt := range points {
		if _, ok := bySeries[pt.Series]; !ok {
			order = append(order, pt.Series)
		}
		bySeries[pt.Series] = append(bySeries[pt.Series], pt)
	}
	st := newStyles(order)
	for _, name := range order {
		xys := make(plotter.XYs, 0, len(bySeries[name]))
		var labels []string
		for _, pt := range bySeries[name] {
			xys = append(xys, plotter.XY{X: pt.CostMs, Y: pt.LostPer1000})
			labels = append(labels, pt.Strategy)
		}
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, fmt.Errorf("figure %s: %w", CostVsLossName, err)
		}
		sc.GlyphStyle = st.glyph(name)
		sc.GlyphStyle.Radius = vg.Points(3.5)
		lb, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: labels})
		if err != nil {
			return nil, fmt.Errorf("figure %s: %w", CostVsLossName, err)
		}
		for i := range lb.TextStyle {
			lb.TextStyle[i].Font.Size = vg.Points(7)
			lb.TextStyle[i].XAlign, lb.Offset = 0, vg.Point{X: vg.Points(5), Y: vg.Points(-2)}
		}
		p.Add(sc, lb)
		p.Legend.Add(name, sc)
	}
	p.Y.Min = 0
	p.Y.Max = max(p.Y.Max*1.1, 100)
	d := drawn{Figure: Figure{Name: CostVsLossName, Series: order,
		Caption: "Each point is one way to update the row: x is what one correct update costs with no fault (update workload), y how many updates its writes lost per 1,000 faults the lost-updates scenario proved. Bottom left is cheap and correct; a lock with a write the store does not judge sits high, whatever it costs."}, plot: p}
	files, err := encodeBoth(d)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(dir, Dir), 0o755); err != nil {
		return nil, err
	}
	for _, f := range files {
		if err := resultsdir.WriteFileAtomic(filepath.Join(dir, f.path), f.data); err != nil {
			return nil, err
		}
		d.Files = append(d.Files, f.path)
	}
	return &d.Figure, nil
}
