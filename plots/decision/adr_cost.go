package decision

import (
	"fmt"
	"math"

	"github.com/lockbench/lockbench/plots"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ADRPoint is one option of an ADR: its cost at the workload's rate and the upper end
// of its expected violations a year.
type ADRPoint struct {
	Label   string
	PerYear float64 // upper end of the interval: never a bare zero
	Seen    bool    // some judged trial broke: filled; none did: a ring at the bound
	CostMs  float64 // the budget's percentile at the workload's rate
}

// ADRCost is the cost-against-violations figure of an ADR.
type ADRCost struct {
	Name, Title, XLabel, YLabel, Caption string
	Points                               []ADRPoint
	BudgetMs                             float64 // the latency budget: a horizontal line
	BudgetLabel                          string
	// Threshold is the purpose's limit a year (a vertical line); 0 draws none.
	Threshold      float64
	ThresholdLabel string
}

// adrCostFigure draws cost against expected violations a year, both on log axes.
func adrCostFigure(f ADRCost) (plots.Drawn, error) {
	p := plots.NewPlot(f.Title, f.XLabel, f.YLabel)
	var xs, ys []float64
	for _, pt := range f.Points {
		if pt.PerYear <= 0 || pt.CostMs <= 0 {
			return plots.Drawn{},
				fmt.Errorf("figure %s: %s: log axes need positive values, got %v a year at %v ms", f.Name, pt.Label, pt.PerYear,
					pt.CostMs)
		}
		xs, ys = append(xs, pt.PerYear), append(ys, pt.CostMs)
	}
	xs, ys = append(xs, f.Threshold), append(ys, f.BudgetMs)
	lo, hi := logRange(xs)
	ylo, yhi := logRange(ys)
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = lo, hi, ylo, yhi
	plots.PadLog(&p.X)
	plots.PadLog(&p.Y)
	p.X.Tick.Marker, p.Y.Tick.Marker = plots.LogTicks{}, plots.LogTicks{}
	var labels []string
	var looks []plots.Look
	for i, pt := range f.Points {
		xy := plotter.XYs{{X: math.Log10(pt.PerYear), Y: math.Log10(pt.CostMs)}}
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return plots.Drawn{}, fmt.Errorf("figure %s: %w", f.Name, err)
		}
		// One slot per point: no two points share colour and marker.
		sc.GlyphStyle = plots.GlyphStyle(plots.LookOf(i))
		sc.GlyphStyle.Radius = vg.Points(4)
		p.Add(sc)
		if !pt.Seen { // a bound, not a measurement: ringed
			ring, err := plotter.NewScatter(xy)
			if err != nil {
				return plots.Drawn{}, fmt.Errorf("figure %s: %w", f.Name, err)
			}
			ring.GlyphStyle = draw.GlyphStyle{Color: plots.Ink, Radius: vg.Points(7), Shape: draw.RingGlyph{}}
			p.Add(ring)
		}
		lb, err := plotter.NewLabels(plotter.XYLabels{XYs: xy, Labels: []string{pt.Label}})
		if err != nil {
			return plots.Drawn{}, fmt.Errorf("figure %s: %w", f.Name, err)
		}
		lb.TextStyle[0].Font.Size = vg.Points(7)
		lb.Offset = vg.Point{X: vg.Points(5), Y: vg.Points(float64(2 + 8*(i%3)))}
		p.Add(lb)
		label := pt.Label
		p.Legend.Add(label, sc)
		labels = append(labels, label)
		looks = append(looks, plots.LookOf(i))
	}
	// The rings get one legend entry of their own: appended to each label, the words
	// doubled an option's own "(bound)".
	for _, pt := range f.Points {
		if !pt.Seen {
			if err := plots.AddRingLegend(p, noneSeenLabel, vg.Points(5)); err != nil {
				return plots.Drawn{}, err
			}
			labels = append(labels, noneSeenLabel)
			looks = append(looks, plots.SaturatedLook)
			break
		}
	}
	if f.BudgetMs > 0 {
		l,
			err := plotter.NewLine(plotter.XYs{{X: p.X.Min, Y: math.Log10(f.BudgetMs)}, {X: p.X.Max, Y: math.Log10(f.BudgetMs)}})
		if err != nil {
			return plots.Drawn{}, err
		}
		l.LineStyle = draw.LineStyle{Color: plots.Ink, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(5), vg.Points(3)}}
		p.Add(l)
		p.Legend.Add(f.BudgetLabel, l)
		labels = append(labels, f.BudgetLabel)
		looks = append(looks, plots.BudgetLook)
	}
	if f.Threshold > 0 {
		l,
			err := plotter.NewLine(plotter.XYs{{X: math.Log10(f.Threshold), Y: p.Y.Min},
			{X: math.Log10(f.Threshold), Y: p.Y.Max}})
		if err != nil {
			return plots.Drawn{}, err
		}
		l.LineStyle = draw.LineStyle{Color: plots.Palette[3], Width: vg.Points(1),
			Dashes: []vg.Length{vg.Points(2), vg.Points(2)}}
		p.Add(l)
		p.Legend.Add(f.ThresholdLabel, l)
		labels = append(labels, f.ThresholdLabel)
		looks = append(looks, plots.ThresholdLook)
	}
	return plots.Drawn{Figure: plots.Figure{Name: f.Name, Caption: f.Caption, Series: labels, Looks: looks}, Plot: p}, nil
}

// noneSeenLabel names the ring round an option no judged trial broke.
const noneSeenLabel = "ring: none seen, x is the interval's upper end"

// logRange is the log10 range of the positive values, a decade wide at least.
func logRange(vs []float64) (float64, float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if v > 0 {
			lo, hi = math.Min(lo, math.Log10(v)), math.Max(hi, math.Log10(v))
		}
	}
	if math.IsInf(lo, 1) {
		return 0, 1
	}
	if hi-lo < 1 {
		mid := (lo + hi) / 2
		lo, hi = mid-0.5, mid+0.5
	}
	return lo, hi
}
