// Package plots is what every family of figures draws with (gonum/plot): the Figure,
// the looks that tell strategies apart, axes and ticks, series with their spread, and
// one writer of PNG and SVG, byte for byte the same for the same input. The families
// are its folders: latency, scaling, violations, decision. It reads; it never measures.
package plots

import (
	"bytes"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
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
	// Looks, beside Series, is what tells each legend entry apart from the others.
	Looks []Look
}

// Figure size: wide enough for five legend entries beside the lines.
const (
	Width  = 7 * vg.Inch
	Height = 4.5 * vg.Inch
)

// Drawn is a figure built in memory, not yet written.
type Drawn struct {
	Figure
	Plot *plot.Plot
}

// encode draws the plot on the left and its legend in a column on the right.
func encode(p *plot.Plot, legend plot.Legend, labels []string, format string) ([]byte, error) {
	c, err := draw.NewFormattedCanvas(Width, Height, format)
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
	fitTitle(p, Width-column)
	p.Draw(draw.Crop(dc, 0, -column, 0, 0))
	legend.Left, legend.Top = true, true
	legend.Padding = vg.Points(3)
	title := p.Title.TextStyle.Height(p.Title.Text) + p.Title.Padding
	legend.Draw(draw.Crop(dc, Width-column+em, 0, 0, -title-em))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// NewPlot starts a figure with a title, axis labels and a white background.
func NewPlot(title, xLabel, yLabel string) *plot.Plot {
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
