package violations

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/plots/plotstest"
	"github.com/lockbench/lockbench/safety/results"
)

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
	ds, err := safetySeriesFigures(fixtureStores, rep)
	if err != nil || len(ds) != 1 {
		t.Fatalf("figures %v, err %v", ds, err)
	}
	d := ds[0]
	plotstest.AssertOwnLooks(t, d.Figure)
	if !strings.Contains(d.Plot.X.Label.Text, "log scale") || !strings.Contains(d.Caption, "log scale") {
		t.Errorf("x label %q, caption %q: the log x axis is not said", d.Plot.X.Label.Text, d.Caption)
	}
	ticks := d.Plot.X.Tick.Marker.Ticks(d.Plot.X.Min, d.Plot.X.Max)
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
	if !strings.Contains(ds[0].Plot.Title.Text, "pause/single/") {
		t.Errorf("title %q does not carry the prefix the rows dropped", ds[0].Plot.Title.Text)
	}
}

func TestEverySafetySeriesFigureGivesEachSeriesItsOwnLook(t *testing.T) {
	var safety []results.Series
	for _, name := range plotstest.Crowd(fixtureStores) {
		safety = append(safety, results.Series{Name: name, X: "delay (ms)", Y: "loss probability", Points: []results.Point{{X: 1, Y: 0.1, Lo: 0, Hi: 0.3, N: 10}}})
	}
	ds, err := safetySeriesFigures(fixtureStores, &results.Report{Scenario: "crowd", Series: safety})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) == 0 {
		t.Fatal("no figure drawn: the check below would see nothing")
	}
	for _, d := range ds {
		plotstest.AssertOwnLooks(t, d.Figure)
	}
}
