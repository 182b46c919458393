package plots

import (
	"image/color"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// palette is colour-blind friendly (Okabe-Ito), so lines stay apart in print.
var palette = []color.Color{
	color.RGBA{0, 114, 178, 255},   // blue
	color.RGBA{213, 94, 0, 255},    // vermillion
	color.RGBA{0, 158, 115, 255},   // green
	color.RGBA{204, 121, 167, 255}, // purple
	color.RGBA{230, 159, 0, 255},   // orange
	color.RGBA{86, 180, 233, 255},  // sky blue
	color.RGBA{0, 0, 0, 255},       // black
	color.RGBA{240, 228, 66, 255},  // yellow
}

var glyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PlusGlyph{},
	draw.CrossGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{},
}

// styles gives each strategy of a run the same colour and glyph in every figure.
type styles struct{ index map[string]int }

func newStyles(strategies []string) styles {
	s := styles{index: map[string]int{}}
	for i, name := range strategies {
		s.index[name] = i
	}
	return s
}

func (s styles) line(strategy string, dashed bool) draw.LineStyle {
	i := s.index[strategy]
	ls := draw.LineStyle{Color: palette[i%len(palette)], Width: vg.Points(1.5)}
	if dashed {
		ls.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	}
	return ls
}

func (s styles) glyph(strategy string) draw.GlyphStyle {
	i := s.index[strategy]
	return draw.GlyphStyle{Color: palette[i%len(palette)], Radius: vg.Points(2.5), Shape: glyphs[i%len(glyphs)]}
}
