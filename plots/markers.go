package plots

import (
	"math"

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
var outline = draw.LineStyle{Color: ink, Width: vg.Points(0.4)}

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
	} else {
		// A polygon looks smaller than its circle; grow it to the same area.
		r := sty.Radius * vg.Length(math.Sqrt(math.Pi/(float64(g.sides)/2*math.Sin(2*math.Pi/float64(g.sides)))))
		for k := 0; k < g.sides; k++ {
			a := (g.turn + 360*float64(k)/float64(g.sides)) * math.Pi / 180
			v := vg.Point{X: pt.X + r*vg.Length(math.Cos(a)), Y: pt.Y + r*vg.Length(math.Sin(a))}
			if k == 0 {
				path.Move(v)
			} else {
				path.Line(v)
			}
		}
	}
	path.Close()
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
	var path vg.Path
	for k := 0; k < 10; k++ {
		r := sty.Radius * 1.4
		if k%2 == 1 {
			r *= 0.45
		}
		a := (90 + 36*float64(k)) * math.Pi / 180
		v := vg.Point{X: pt.X + r*vg.Length(math.Cos(a)), Y: pt.Y + r*vg.Length(math.Sin(a))}
		if k == 0 {
			path.Move(v)
		} else {
			path.Line(v)
		}
	}
	path.Close()
	c.SetColor(sty.Color)
	c.Fill(path)
	c.SetLineStyle(outline)
	c.Stroke(path)
}
