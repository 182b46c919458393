package decision

import (
	"math"
	"testing"

	"github.com/lockbench/lockbench/plots/plotstest"
)

func TestCostVsLossKeepsZeroWrongOffTheFrame(t *testing.T) {
	d, err := costVsLoss(fixtureStores, []CostLossPoint{
		{Strategy: "single", Series: "fenced", CostMs: 1.4, WrongPer1000: 0},
		{Strategy: "single", Series: "unfenced", CostMs: 1.3, WrongPer1000: 1000},
		{Strategy: "etcd", Series: "fenced", CostMs: 18, WrongPer1000: 0},
	})
	if err != nil {
		t.Fatal(err)
	}
	if d.Plot.Y.Min >= 0 {
		t.Errorf("y axis starts at %v: points with 0 wrong lie on the x axis", d.Plot.Y.Min)
	}
	if !(d.Plot.X.Min < math.Log10(1.3) && d.Plot.X.Max > math.Log10(18)) {
		t.Errorf("x axis %v to %v (log10) does not leave room round 1.3 and 18 ms", d.Plot.X.Min, d.Plot.X.Max)
	}
	if _, err := costVsLoss(fixtureStores, []CostLossPoint{{Strategy: "x", Series: "fenced", CostMs: 0}}); err == nil {
		t.Error("a zero cost on a log axis was drawn, not refused")
	}
}

func TestCostFiguresGiveEachSeriesItsOwnLook(t *testing.T) {
	var costs []CostLossPoint
	adr := ADRCost{Name: "adr-cost", Title: "cost", XLabel: "faults per year", YLabel: "ms", BudgetMs: 10, BudgetLabel: "budget", Threshold: 1, ThresholdLabel: "threshold"}
	for i, name := range plotstest.Crowd(fixtureStores) {
		y := float64(i + 1)
		costs = append(costs, CostLossPoint{Strategy: name, Series: name, CostMs: y, WrongPer1000: y})
		adr.Points = append(adr.Points, ADRPoint{Label: name, PerYear: y, CostMs: y, Seen: i%2 == 0})
	}
	cost, err := WriteCostVsLoss(t.TempDir(), fixtureStores, costs)
	if err != nil {
		t.Fatal(err)
	}
	plotstest.AssertOwnLooks(t, *cost)
	d, err := adrCostFigure(adr)
	if err != nil {
		t.Fatal(err)
	}
	plotstest.AssertOwnLooks(t, d.Figure)
}
