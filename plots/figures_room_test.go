package plots

import (
	"math"
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

func TestSpectrumMarksFiftyPercentAndTheDecadesOnly(t *testing.T) {
	h := hdrhistogram.New(1, 10_000_000, 3)
	for v := int64(1); v <= 200_000; v++ {
		if err := h.RecordValue(1000 + v%5000); err != nil {
			t.Fatal(err)
		}
	}
	var marked []float64
	for _, pt := range spectrum(h) {
		if spectrumMark(pt) {
			marked = append(marked, pt.X)
		}
	}
	want := []float64{2, 10, 100, 1000, 10000, 100000}
	if len(marked) != len(want) {
		t.Fatalf("marked x %v, want %v", marked, want)
	}
	for i := range want {
		if math.Abs(marked[i]-want[i]) > 1e-9*want[i] {
			t.Errorf("marked x %v, want %v", marked, want)
		}
	}
}

func TestOnAxesKeepsTheIndexOfEveryPointItDraws(t *testing.T) {
	sr := series{points: plotter.XYs{{X: 3, Y: 1}, {X: 1, Y: 0}, {X: 2, Y: 5}}}
	pts, _, kept := onAxes(sr, logAxes{y: true}) // the zero cannot go on a log axis
	if len(pts) != 2 || len(kept) != 2 || kept[0] != 2 || kept[1] != 0 {
		t.Fatalf("points %v kept %v: want x 2 then 3 (indexes 2, 0)", pts, kept)
	}
}

func TestSaturationRingsKeepRoomFromTheFrame(t *testing.T) {
	p := newPlot("", "", "")
	sc, err := plotter.NewScatter(plotter.XYs{{X: 1, Y: 1}})
	if err != nil {
		t.Fatal(err)
	}
	sc.GlyphStyle = draw.GlyphStyle{Radius: vg.Points(7), Shape: draw.RingGlyph{}}
	tight, roomyBox := sc.GlyphBoxes(p)[0].Rectangle, roomy{sc, vg.Points(ringRoom)}.GlyphBoxes(p)[0].Rectangle
	if roomyBox.Max.Y-tight.Max.Y != vg.Points(ringRoom) || tight.Min.X-roomyBox.Min.X != vg.Points(ringRoom) {
		t.Errorf("ring box %v, with room %v: want %v more on each side", tight, roomyBox, vg.Points(ringRoom))
	}
}

func TestMeasuredXTicksTheValuesRunAndLeavesAMargin(t *testing.T) {
	p := newPlot("", "", "")
	measuredX(p, []float64{0, 1, 5, 1, 0})
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
		if got := logLabel(in); got != want {
			t.Errorf("logLabel(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCostVsLossKeepsZeroWrongOffTheFrame(t *testing.T) {
	d, err := costVsLoss([]CostLossPoint{
		{Strategy: "single", Series: "fenced", CostMs: 1.4, WrongPer1000: 0},
		{Strategy: "single", Series: "unfenced", CostMs: 1.3, WrongPer1000: 1000},
		{Strategy: "etcd", Series: "fenced", CostMs: 18, WrongPer1000: 0},
	})
	if err != nil {
		t.Fatal(err)
	}
	if d.plot.Y.Min >= 0 {
		t.Errorf("y axis starts at %v: points with 0 wrong lie on the x axis", d.plot.Y.Min)
	}
	if !(d.plot.X.Min < math.Log10(1.3) && d.plot.X.Max > math.Log10(18)) {
		t.Errorf("x axis %v to %v (log10) does not leave room round 1.3 and 18 ms", d.plot.X.Min, d.plot.X.Max)
	}
	if _, err := costVsLoss([]CostLossPoint{{Strategy: "x", Series: "fenced", CostMs: 0}}); err == nil {
		t.Error("a zero cost on a log axis was drawn, not refused")
	}
}
