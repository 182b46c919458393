package plots

import (
	"image/color"

	"github.com/lockbench/lockbench/backend"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Palette is Okabe-Ito's nine colours (its grey included), told apart by every common
// colour-blindness; yellow comes last because it is the faintest on white.
var Palette = []color.Color{
	color.RGBA{0, 114, 178, 255},   // blue
	color.RGBA{230, 159, 0, 255},   // orange
	color.RGBA{0, 158, 115, 255},   // bluish green
	color.RGBA{213, 94, 0, 255},    // vermillion
	color.RGBA{204, 121, 167, 255}, // reddish purple
	color.RGBA{0, 0, 0, 255},       // black
	color.RGBA{86, 180, 233, 255},  // sky blue
	color.RGBA{153, 153, 153, 255}, // grey
	color.RGBA{240, 228, 66, 255},  // yellow
}

// Ink draws what is not a series of measurements: budgets, thresholds, saturation rings.
var Ink = color.RGBA{0, 0, 0, 255}

// dashPatterns tell apart, in greyscale, the lines of series past the first pass of
// the palette; the first is solid.
var dashPatterns = [][]vg.Length{
	nil,
	{vg.Points(6), vg.Points(3)},
	{vg.Points(1.5), vg.Points(2.5)},
	{vg.Points(6), vg.Points(2), vg.Points(1.5), vg.Points(2)},
}

// SecondView is the dash of a strategy's second line in one figure (p50 beside p99, a
// model beside the measurement, a fitted curve), unlike every pattern in dashPatterns.
var SecondView = []vg.Length{vg.Points(3), vg.Points(3)}

// Look is what tells a series from the others: indexes into palette, markers and
// dashPatterns (secondDash: drawn with secondView). Two series of a figure never share one.
type Look struct {
	Colour, Marker, Dash int
	SecondDash           bool
}

// maxLooks is how many slots lookOf keeps distinct: palette × markers pairs, each
// with four dash patterns.
var maxLooks = len(Palette) * len(markers) * len(dashPatterns)

// LookOf is slot i's look. Colour and marker advance together; at each pass of the
// palette the marker shifts one place further (so no colour-marker pair repeats for
// len(palette)² slots) and the line takes the next dash pattern.
func LookOf(i int) Look {
	pass := i / len(Palette)
	return Look{
		Colour: i % len(Palette),
		Marker: (i + pass) % len(markers),
		Dash:   pass % len(dashPatterns),
	}
}

// Styles gives each strategy of a run one slot, so the same colour, marker and dash
// in every figure: a strategy a store declared its position (backend.Strategy), so that
// it looks the same in every figure of every run; any other name the lowest slot no
// strategy of the run holds, in the order given.
type Styles struct{ slot map[string]int }

// NewStyles gives strategies their slots; stores holds the declared positions (the
// program passes the stores it links); nil for names that are no strategy's.
func NewStyles(stores *backend.Catalog, strategies []string) Styles {
	s := Styles{slot: map[string]int{}}
	taken := map[int]bool{}
	for _, name := range strategies {
		if stores == nil {
			break
		}
		if st, ok := stores.StrategyOf(name); ok {
			s.slot[name], taken[st.Position] = st.Position, true
		}
	}
	free := 0
	for _, name := range strategies {
		if _, ok := s.slot[name]; ok {
			continue
		}
		for taken[free] {
			free++
		}
		s.slot[name], taken[free] = free, true
	}
	return s
}

// Look is the strategy's Look; second marks its second line in a figure.
func (s Styles) Look(strategy string, second bool) Look {
	l := LookOf(s.slot[strategy])
	l.SecondDash = second
	return l
}

func (s Styles) Line(strategy string, second bool) draw.LineStyle {
	return LineStyle(s.Look(strategy, second))
}

func (s Styles) Glyph(strategy string) draw.GlyphStyle {
	return GlyphStyle(s.Look(strategy, false))
}

func LineStyle(l Look) draw.LineStyle {
	ls := draw.LineStyle{Color: Palette[l.Colour], Width: vg.Points(1.5), Dashes: dashPatterns[l.Dash]}
	if l.SecondDash {
		ls.Dashes = SecondView
	}
	return ls
}

func GlyphStyle(l Look) draw.GlyphStyle {
	return draw.GlyphStyle{Color: Palette[l.Colour], Radius: vg.Points(3), Shape: markers[l.Marker]}
}

// Looks of legend entries that are not measured series, each apart from every series.
var (
	BudgetLook    = Look{Colour: -1, Marker: -1}
	ThresholdLook = Look{Colour: -2, Marker: -1}
	SaturatedLook = Look{Colour: -3, Marker: -1}
	BoundaryLook  = Look{Colour: -4, Marker: -1}
	SpreadLook    = Look{Colour: -5, Marker: -1}
	KneeLook      = Look{Colour: -6, Marker: -1}
)
