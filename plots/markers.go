package plots

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// markers are nine shapes a greyscale print tells apart. The ring is not among them:
// it marks a saturated or budget-breaking point around the series' own marker.
var markers = []draw.GlyphDrawer{
	polygon{sides: 0},                 // circle
	polygon{sides: 4, turn: 45},       // square
	polygon{sides: 3, turn: 90},       // triangle, point up
	polygon{sides: 4},                 // diamond
	polygon{sides: 3, turn: -90},      // triangle, point down
	strokes{angles: []float64{0, 90}}, // plus
	strokes{angles: []float64{45, 135}},
	polygon{sides: 4, turn: 45, hollow: true}, // open square
	star{},
}

// outline edges filled markers so that light colours (yellow, grey, sky blue) stand
// out on white.
var outline = draw.LineStyle{Color: Ink, Width: vg.Points(0.4)}

// polygon is a filled regular polygon (a circle when sides is 0) whose first vertex is
// turn degrees from the x axis; hollow draws its edge only, in the series' colour.
type polygon struct {
	sides  int
	turn   float64
	hollow bool
}

func (g polygon) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	var path vg.Path
	if g.sides == 0 {
		path.Move(vg.Point{X: pt.X + sty.Radius, Y: pt.Y})
		path.Arc(pt, sty.Radius, 0, 2*math.Pi)
		path.Close()
	} else {
		// A polygon looks smaller than its circle; grow it to the same area.
		r := sty.Radius * vg.Length(math.Sqrt(math.Pi/(float64(g.sides)/2*math.Sin(2*math.Pi/float64(g.sides)))))
		path = closedPath(pt, g.sides, func(int) vg.Length { return r },
			func(k int) float64 { return g.turn + 360*float64(k)/float64(g.sides) })
	}
	if g.hollow {
		c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(1.2)})
		c.Stroke(path)
		return
	}
	c.SetColor(sty.Color)
	c.Fill(path)
	c.SetLineStyle(outline)
	c.Stroke(path)
}

// strokes draws a bar through the point at each angle (a plus, a cross), thick enough
// to carry its colour.
type strokes struct{ angles []float64 }

func (g strokes) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(1.6)})
	r := sty.Radius * 1.2
	for _, deg := range g.angles {
		a := deg * math.Pi / 180
		dx, dy := r*vg.Length(math.Cos(a)), r*vg.Length(math.Sin(a))
		var path vg.Path
		path.Move(vg.Point{X: pt.X - dx, Y: pt.Y - dy})
		path.Line(vg.Point{X: pt.X + dx, Y: pt.Y + dy})
		c.Stroke(path)
	}
}

// star is a filled five-pointed star.
type star struct{}

func (star) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	radius := func(k int) vg.Length {
		if k%2 == 1 { // the inner corners
			return sty.Radius * 1.4 * 0.45
		}
		return sty.Radius * 1.4
	}
	path := closedPath(pt, 10, radius, func(k int) float64 { return 90 + 36*float64(k) })
	c.SetColor(sty.Color)
	c.Fill(path)
	c.SetLineStyle(outline)
	c.Stroke(path)
}

// AddRingLegend names what the figure's rings mean in its legend: an entry drawn as a
// lone ring of radius r.
func AddRingLegend(p *plot.Plot, label string, r vg.Length) error {
	ring, err := plotter.NewScatter(plotter.XYs{{}})
	if err != nil {
		return err
	}
	ring.GlyphStyle = draw.GlyphStyle{Color: Ink, Radius: r, Shape: draw.RingGlyph{}}
	p.Legend.Add(label, ring)
	return nil
}

// closedPath joins n vertices around pt, vertex k at distance radius(k) and angle
// angle(k) in degrees, into one closed path.
func closedPath(pt vg.Point, n int, radius func(k int) vg.Length, angle func(k int) float64) vg.Path {
	var path vg.Path
	for k := 0; k < n; k++ {
		a := angle(k) * math.Pi / 180
		v := vg.Point{X: pt.X + radius(k)*vg.Length(math.Cos(a)), Y: pt.Y + radius(k)*vg.Length(math.Sin(a))}
		if k == 0 {
			path.Move(v)
		} else {
			path.Line(v)
		}
	}
	path.Close()
	return path
}

// RingRoom is the room left between a ring and the frame (points): gonum shrinks the
// data area until every glyph fits, so a ring at the top or the end touched the frame.
const RingRoom = 5

// Roomy is a scatter whose glyphs claim room beyond their radius, so that the plot
// keeps that much space between them and the frame.
type Roomy struct {
	*plotter.Scatter
	Room vg.Length
}

func (r Roomy) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	boxes := r.Scatter.GlyphBoxes(p)
	for i := range boxes {
		boxes[i].Rectangle.Min.X -= r.Room
		boxes[i].Rectangle.Min.Y -= r.Room
		boxes[i].Rectangle.Max.X += r.Room
		boxes[i].Rectangle.Max.Y += r.Room
	}
	return boxes
}
