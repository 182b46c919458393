package decision

import (
	"fmt"
	"image/color"
	"math"
	"sort"

	"github.com/lockbench/lockbench/plots"
	"gonum.org/v1/plot"
	gonumpalette "gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// HeatCell is K of N judged trials at one point of a two-parameter sweep.
type HeatCell struct {
	X, Y float64
	K, N int
}

// HeatMap is measured violation probability over two swept fault parameters, with
// an analytic boundary where one exists.
type HeatMap struct {
	Name, Title, XLabel, YLabel, Caption string
	LogX                                 bool // the x values span decades (clock jumps)
	Cells                                []HeatCell
	// Boundary is the model's line in data units; empty draws none.
	Boundary      plotter.XYs
	BoundaryLabel string
}

// heatGrid is the cells on a grid of the distinct x and y values; missing cells are NaN.
type heatGrid struct {
	xs, ys []float64
	z      map[[2]int]float64
}

func (g heatGrid) Dims() (int, int) { return len(g.xs), len(g.ys) }
func (g heatGrid) Z(c, r int) float64 {
	if v, ok := g.z[[2]int{c, r}]; ok {
		return v
	}
	return math.NaN()
}
func (g heatGrid) X(c int) float64 { return g.xs[c] }
func (g heatGrid) Y(r int) float64 { return g.ys[r] }

func distinctSorted(vs []float64) []float64 {
	seen := map[float64]bool{}
	var out []float64
	for _, v := range vs {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	sort.Float64s(out)
	return out
}

// heatFigure draws the heat map, each cell labelled k/n, and the boundary.
func heatFigure(h HeatMap) (plots.Drawn, error) {
	if len(h.Cells) == 0 {
		return plots.Drawn{}, fmt.Errorf("figure %s: no cells", h.Name)
	}
	tx := func(x float64) float64 {
		if h.LogX {
			return math.Log10(x)
		}
		return x
	}
	var rawX, rawY []float64
	for _, c := range h.Cells {
		if h.LogX && c.X <= 0 {
			return plots.Drawn{}, fmt.Errorf("figure %s: log x needs positive values, got %v", h.Name, c.X)
		}
		rawX, rawY = append(rawX, tx(c.X)), append(rawY, c.Y)
	}
	g := heatGrid{xs: distinctSorted(rawX), ys: distinctSorted(rawY), z: map[[2]int]float64{}}
	var lxy plotter.XYs
	var ltext []string
	for _, c := range h.Cells {
		col, row := sort.SearchFloat64s(g.xs, tx(c.X)), sort.SearchFloat64s(g.ys, c.Y)
		if c.N > 0 {
			g.z[[2]int{col, row}] = float64(c.K) / float64(c.N)
		}
		lxy = append(lxy, plotter.XY{X: tx(c.X), Y: c.Y})
		ltext = append(ltext, fmt.Sprintf("%d/%d", c.K, c.N))
	}
	hm := plotter.NewHeatMap(g, heatPalette(11))
	hm.Min, hm.Max = 0, 1
	hm.NaN = color.Gray{Y: 200}
	p := plots.NewPlot(h.Title, h.XLabel, h.YLabel)
	p.Add(hm)
	lb, err := plotter.NewLabels(plotter.XYLabels{XYs: lxy, Labels: ltext})
	if err != nil {
		return plots.Drawn{}, fmt.Errorf("figure %s: %w", h.Name, err)
	}
	for i := range lb.TextStyle {
		lb.TextStyle[i].Font.Size = vg.Points(8)
		lb.TextStyle[i].XAlign, lb.TextStyle[i].YAlign = draw.XCenter, draw.YCenter
	}
	p.Add(lb)
	ticks := func(vs []float64, raw bool) plot.ConstantTicks {
		var t plot.ConstantTicks
		for _, v := range vs {
			label := v
			if raw && h.LogX {
				label = math.Pow(10, v)
			}
			t = append(t, plot.Tick{Value: v, Label: fmt.Sprintf("%.4g", label)})
		}
		return t
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = ticks(g.xs, true), ticks(g.ys, false)
	var series []string // the colour scale is said in the caption: a legend column would squeeze the map
	if len(h.Boundary) > 0 {
		var bxy plotter.XYs
		for _, pt := range h.Boundary {
			if h.LogX && pt.X <= 0 {
				continue
			}
			bxy = append(bxy, plotter.XY{X: tx(pt.X), Y: pt.Y})
		}
		if len(bxy) > 0 {
			line, pts, err := plotter.NewLinePoints(bxy)
			if err != nil {
				return plots.Drawn{}, fmt.Errorf("figure %s: %w", h.Name, err)
			}
			line.LineStyle = draw.LineStyle{Color: plots.Ink, Width: vg.Points(2),
				Dashes: []vg.Length{vg.Points(4), vg.Points(2)}}
			pts.GlyphStyle = draw.GlyphStyle{Color: plots.Ink, Radius: vg.Points(3), Shape: draw.CrossGlyph{}}
			p.Add(line, pts)
			p.Legend.Add(h.BoundaryLabel, line, pts)
			series = append(series, h.BoundaryLabel)
		}
	}
	return plots.Drawn{Figure: plots.Figure{Name: h.Name, Caption: h.Caption, Series: series,
		Looks: heatmapLooks(series)}, Plot: p}, nil
}

// heatPalette runs from pale yellow (0: never broke) to dark red (1: always broke), n
// steps, so that a half-broken cell never reads as "no trial" (grey).
func heatPalette(n int) gonumpalette.Palette {
	from, to := [3]float64{255, 255, 204}, [3]float64{189, 0, 38}
	cs := make([]color.Color, n)
	for i := range cs {
		f := float64(i) / float64(n-1)
		mix := func(c int) uint8 { return uint8(from[c] + f*(to[c]-from[c]) + 0.5) }
		cs[i] = color.RGBA{mix(0), mix(1), mix(2), 255}
	}
	return heatColors(cs)
}

type heatColors []color.Color

func (h heatColors) Colors() []color.Color { return h }

// heatmapLooks: a heat map's only legend entry is its boundary line.
func heatmapLooks(series []string) []plots.Look {
	if len(series) == 0 {
		return nil
	}
	return []plots.Look{plots.BoundaryLook}
}
