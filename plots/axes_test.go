package plots

import (
	"testing"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

func TestOnAxesKeepsTheIndexOfEveryPointItDraws(t *testing.T) {
	sr := Series{Points: plotter.XYs{{X: 3, Y: 1}, {X: 1, Y: 0}, {X: 2, Y: 5}}}
	pts, _, kept := onAxes(sr, LogAxes{Y: true}) // the zero cannot go on a log axis
	if len(pts) != 2 || len(kept) != 2 || kept[0] != 2 || kept[1] != 0 {
		t.Fatalf("points %v kept %v: want x 2 then 3 (indexes 2, 0)", pts, kept)
	}
}

func TestSaturationRingsKeepRoomFromTheFrame(t *testing.T) {
	p := NewPlot("", "", "")
	sc, err := plotter.NewScatter(plotter.XYs{{X: 1, Y: 1}})
	if err != nil {
		t.Fatal(err)
	}
	sc.GlyphStyle = draw.GlyphStyle{Radius: vg.Points(7), Shape: draw.RingGlyph{}}
	tight, roomyBox := sc.GlyphBoxes(p)[0].Rectangle, Roomy{sc, vg.Points(RingRoom)}.GlyphBoxes(p)[0].Rectangle
	if roomyBox.Max.Y-tight.Max.Y != vg.Points(RingRoom) || tight.Min.X-roomyBox.Min.X != vg.Points(RingRoom) {
		t.Errorf("ring box %v, with room %v: want %v more on each side", tight, roomyBox, vg.Points(RingRoom))
	}
}

func TestMeasuredXTicksTheValuesRunAndLeavesAMargin(t *testing.T) {
	p := NewPlot("", "", "")
	MeasuredX(p, []float64{0, 1, 5, 1, 0})
	got := p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max)
	if len(got) != 3 || got[0].Value != 0 || got[1].Value != 1 || got[2].Value != 5 {
		t.Errorf("ticks %v, want 0, 1, 5", got)
	}
	if !(p.X.Min < 0 && p.X.Max > 5) {
		t.Errorf("x axis %v to %v: a point at 0 or 5 would sit on the frame", p.X.Min, p.X.Max)
	}
}

func TestLogLabelGoesInsideTheUnit(t *testing.T) {
	for in, want := range map[string]string{
		"p99 acquire latency (ms)": "p99 acquire latency (ms, log scale)",
		"cycles per second":        "cycles per second (log scale)",
	} {
		if got := LogLabel(in); got != want {
			t.Errorf("logLabel(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLooksNeverRepeatWithinMaxLooks(t *testing.T) {
	seen := map[Look]int{}
	for i := 0; i < maxLooks; i++ {
		l := LookOf(i)
		if j, ok := seen[l]; ok {
			t.Fatalf("slots %d and %d share the look %+v", j, i, l)
		}
		seen[l] = i
	}
}
