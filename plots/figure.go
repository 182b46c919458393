// Package plots draws the figures of a results folder with gonum/plot: PNG and SVG,
// byte for byte the same for the same input. It reads results; it never measures.
package plots

import (
	"bytes"
	"fmt"
	"path/filepath"

	"github.com/HdrHistogram/hdrhistogram-go"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/stats"
)

// Dir is the folder, inside a results folder, that holds the figures.
const Dir = "figures"

// Figure is one written figure: its name, its files relative to the results folder
// (PNG first, then SVG), a caption for the report and the legend entries it drew.
type Figure struct {
	Name    string
	Files   []string
	Caption string
	Series  []string
	// looks, beside Series, is what tells each legend entry apart from the others.
	looks []look
}

// Figure size: wide enough for five legend entries beside the lines.
const (
	width  = 7 * vg.Inch
	height = 4.5 * vg.Inch
)

// drawn is a figure built in memory, not yet written.
type drawn struct {
	Figure
	plot *plot.Plot
}

// histograms reads a cell's histogram log for a metric from the results folder.
type histograms func(c *resultsdir.Cell, metric string) (*hdrhistogram.Histogram, error)

// builders are the kinds of figure, in the order the report shows them.
var builders = []func(run *source) ([]drawn, error){
	spectrumFigures,
	throughputFigures,
	networkFigures,
	slowNodeFigures,
	openLoopFigures,
}

// source is what a figure builder reads: the run's cell groups, one style per strategy
// and the histogram logs.
type source struct {
	groups []*stats.Group
	styles styles
	hist   histograms
	// intervals reads a cell's histogram log one interval at a time.
	intervals func(c *resultsdir.Cell, metric string) ([]*hdrhistogram.Histogram, error)
}

// WriteAll draws every figure the run has data for into dir/figures, as PNG and SVG.
// It renders all of them before it writes any, so bad input leaves nothing behind.
func WriteAll(dir string, run *resultsdir.Run) ([]Figure, error) {
	ds, err := build(dir, run)
	if err != nil {
		return nil, err
	}
	return write(dir, ds)
}

// build draws every figure of the run in memory: what WriteAll would write.
func build(dir string, run *resultsdir.Run) ([]drawn, error) {
	groups := stats.Groups(run)
	src := &source{
		groups: groups,
		styles: newStyles(stats.Strategies(groups)),
		hist: func(c *resultsdir.Cell, metric string) (*hdrhistogram.Histogram, error) {
			rel, ok := c.Histograms[metric]
			if !ok || rel == "" {
				return nil, fmt.Errorf("%s: cell %s has no %s histogram", filepath.Join(dir, resultsdir.JSONFile), c.Name, metric)
			}
			return resultsdir.ReadHistogram(dir, rel)
		},
		intervals: func(c *resultsdir.Cell, metric string) ([]*hdrhistogram.Histogram, error) {
			return resultsdir.ReadHistogramIntervals(dir, c.Histograms[metric])
		},
	}
	var all []drawn
	for _, b := range builders {
		ds, err := b(src)
		if err != nil {
			return nil, err
		}
		all = append(all, ds...)
	}
	return all, nil
}

// encode draws the plot on the left and its legend in a column on the right.
func encode(p *plot.Plot, legend plot.Legend, labels []string, format string) ([]byte, error) {
	c, err := draw.NewFormattedCanvas(width, height, format)
	if err != nil {
		return nil, err
	}
	dc := draw.New(c)
	em := legend.TextStyle.Rectangle(" ").Max.X
	var widest vg.Length
	for _, e := range labels {
		widest = max(widest, legend.TextStyle.Width(e))
	}
	column := legend.ThumbnailWidth + 3*em + widest
	fitTitle(p, width-column)
	p.Draw(draw.Crop(dc, 0, -column, 0, 0))
	legend.Left, legend.Top = true, true
	legend.Padding = vg.Points(3)
	title := p.Title.TextStyle.Height(p.Title.Text) + p.Title.Padding
	legend.Draw(draw.Crop(dc, width-column+em, 0, 0, -title-em))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// newPlot starts a figure with a title, axis labels and a white background.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.X.Tick.Marker, p.Y.Tick.Marker = cleanTicks{}, cleanTicks{}
	return p
}

// fitTitle shrinks the title's font until it fits the figure's width: gonum centres a
// title over the plot and clips what overflows.
func fitTitle(p *plot.Plot, w vg.Length) {
	avail := w - vg.Inch/4
	if tw := p.Title.TextStyle.Width(p.Title.Text); tw > avail {
		p.Title.TextStyle.Font.Size = p.Title.TextStyle.Font.Size * avail / tw
	}
}

// where returns the run's groups that keep says to draw, in order.
func (s *source) where(keep func(*stats.Group) bool) []*stats.Group {
	var out []*stats.Group
	for _, g := range s.groups {
		if keep(g) {
			out = append(out, g)
		}
	}
	return out
}
