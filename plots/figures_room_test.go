package plots

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/lockbench/lockbench/safety/results"
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

func TestClockSweepOverDecadesIsDrawnOnLogXWithTheModelAsALine(t *testing.T) {
	pt := func(x, y float64, measured bool) results.Point {
		if measured {
			return results.Point{X: x, Y: y, Lo: 0, Hi: 0.6, N: 3}
		}
		return results.Point{X: x, Y: y, Lo: y, Hi: y}
	}
	rep := &results.Report{Scenario: "redlock-clock-jump", Series: []results.Series{
		{Name: "k=3 measured", X: "jump J (ms)", Y: "share", Points: []results.Point{pt(2, 0, true), pt(30, 1, true), pt(300, 1, true)}},
		{Name: "k=3 model", X: "jump J (ms)", Y: "share", Points: []results.Point{pt(2, 0, false), pt(30, 1, false), pt(300, 1, false)}},
	}}
	ds, err := safetySeriesFigures(rep)
	if err != nil || len(ds) != 1 {
		t.Fatalf("figures %v, err %v", ds, err)
	}
	d := ds[0]
	assertOwnLooks(t, d.Figure)
	if !strings.Contains(d.plot.X.Label.Text, "log scale") || !strings.Contains(d.Caption, "log scale") {
		t.Errorf("x label %q, caption %q: the log x axis is not said", d.plot.X.Label.Text, d.Caption)
	}
	ticks := d.plot.X.Tick.Marker.Ticks(d.plot.X.Min, d.plot.X.Max)
	if len(ticks) != 3 || ticks[0].Label != "2" || math.Abs(ticks[2].Value-math.Log10(300)) > 1e-9 {
		t.Errorf("ticks %v: want 2, 30, 300 at their log10", ticks)
	}
	if !strings.Contains(d.Caption, "model as a dashed line") {
		t.Errorf("caption %q does not say how measured and model are drawn", d.Caption)
	}
}

func TestManyOverlapRowsDropTheirCommonPrefix(t *testing.T) {
	var vs []*results.Variant
	for i := 0; i < 12; i++ {
		v := &results.Variant{Name: fmt.Sprintf("pause/single/guard-%d", i)}
		v.Tally.Judged = 5
		v.Tally.Overlap.Values = []float64{1, 2}
		vs = append(vs, v)
	}
	if got := commonPrefix(vs); got != "pause/single/" {
		t.Errorf("common prefix %q, want pause/single/", got)
	}
	ds, err := overlapFigure(&results.Report{Scenario: "lost-updates", Variants: vs})
	if err != nil || len(ds) != 1 {
		t.Fatalf("figures %v, err %v", ds, err)
	}
	if !strings.Contains(ds[0].plot.Title.Text, "pause/single/") {
		t.Errorf("title %q does not carry the prefix the rows dropped", ds[0].plot.Title.Text)
	}
}
