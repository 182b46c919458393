package plots

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot/plotter"

	"github.com/lockbench/lockbench/report/synth"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/safety/results"
)

// crowd is more strategies than the palette has colours: every shipped one and
// names the table does not know.
func crowd() []string {
	names := append([]string(nil), knownStrategies...)
	for i := 0; i < 12; i++ {
		names = append(names, fmt.Sprintf("custom-%d", i))
	}
	return names
}

// assertOwnLooks fails a figure with a legend entry whose look another entry shares,
// or with an entry that has no look.
func assertOwnLooks(t *testing.T, f Figure) {
	t.Helper()
	if len(f.looks) != len(f.Series) {
		t.Errorf("%s: %d looks for %d legend entries %v", f.Name, len(f.looks), len(f.Series), f.Series)
		return
	}
	seen := map[look]string{}
	for i, l := range f.looks {
		if other, ok := seen[l]; ok {
			t.Errorf("%s: %q and %q are drawn alike (%+v)", f.Name, other, f.Series[i], l)
		}
		seen[l] = f.Series[i]
	}
}

// crowdedRun is a synthetic run whose every cell is measured again under each name of
// crowd, so each report figure has more series than the palette has colours.
func crowdedRun(t *testing.T, dir string) *resultsdir.Run {
	run, err := synth.Write(dir, synth.Options{Seed: 1, Samples: 300})
	if err != nil {
		t.Fatal(err)
	}
	var cells []resultsdir.Cell
	for _, c := range run.Cells {
		if c.Strategy != "redlock" {
			continue
		}
		for _, name := range crowd() {
			cl := c
			cl.Strategy = name
			cl.Name = strings.Replace(c.Name, "strategy=redlock/", "strategy="+name+"/", 1)
			cells = append(cells, cl)
		}
	}
	run.Cells = cells
	return run
}

func TestEveryReportFigureGivesEachSeriesItsOwnLook(t *testing.T) {
	dir := t.TempDir()
	figs, _, err := renderBuilt(build(dir, crowdedRun(t, dir)))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, f := range figs {
		kinds[strings.SplitN(f.Name, "_", 2)[0]] = true
		assertOwnLooks(t, f)
	}
	for _, kind := range []string{"spectrum", "throughput-contended", "throughput-uncontended", "network", "redlock-slow-node", "open-loop"} {
		if !kinds[kind] {
			t.Errorf("no %s figure drawn: the check above did not see it (got %v)", kind, kinds)
		}
	}
}

func TestEveryCapacitySafetyAndADRFigureGivesEachSeriesItsOwnLook(t *testing.T) {
	dir := t.TempDir()
	var knees []KneeSeries
	var usl []USLSeries
	var lines []LineSeries
	var safety []results.Series
	var costs []CostLossPoint
	adr := ADRCost{Name: "adr-cost", Title: "cost", XLabel: "faults per year", YLabel: "ms", BudgetMs: 10, BudgetLabel: "budget", Threshold: 1, ThresholdLabel: "threshold"}
	for i, name := range crowd() {
		y := float64(i + 1)
		knees = append(knees, KneeSeries{Strategy: name, Kept: 1000 * y, Points: []KneePoint{{1000 * y, time.Millisecond, true}, {2000 * y, 9 * time.Millisecond, false}}})
		usl = append(usl, USLSeries{Strategy: name, Label: name, Points: plotter.XYs{{X: 1, Y: y}, {X: 8, Y: 4 * y}},
			Fit: func(n float64) float64 { return y * n / (1 + 0.1*(n-1)) }})
		lines = append(lines, LineSeries{Label: name, Style: name, Points: plotter.XYs{{X: 3, Y: y}, {X: 5, Y: 2 * y}}})
		safety = append(safety, results.Series{Name: name, X: "delay (ms)", Y: "loss probability", Points: []results.Point{{X: 1, Y: 0.1, Lo: 0, Hi: 0.3, N: 10}}})
		costs = append(costs, CostLossPoint{Strategy: name, Series: name, CostMs: y, WrongPer1000: y})
		adr.Points = append(adr.Points, ADRPoint{Label: name, PerYear: y, CostMs: y, Seen: i%2 == 0})
	}
	var figs []Figure
	for _, draw := range []func() (Figure, error){
		func() (Figure, error) { return KneeFigure(dir, "knee", "64 clients", "p99", 5*time.Millisecond, knees) },
		func() (Figure, error) { return USLFigure(dir, "usl", "a key per client", usl) },
		func() (Figure, error) {
			return ScalingFigure(dir, "nodes", "p99 against nodes", "nodes", "caption", lines)
		},
	} {
		f, err := draw()
		if err != nil {
			t.Fatal(err)
		}
		figs = append(figs, f)
	}
	drawnSafety, err := safetySeriesFigures(&results.Report{Scenario: "crowd", Series: safety})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range drawnSafety {
		figs = append(figs, d.Figure)
	}
	cost, err := WriteCostVsLoss(dir, costs)
	if err != nil {
		t.Fatal(err)
	}
	figs = append(figs, *cost)
	d, err := adrCostFigure(adr)
	if err != nil {
		t.Fatal(err)
	}
	figs = append(figs, d.Figure)
	for _, f := range figs {
		assertOwnLooks(t, f)
	}
}

func TestLooksNeverRepeatWithinMaxLooks(t *testing.T) {
	seen := map[look]int{}
	for i := 0; i < maxLooks; i++ {
		l := lookOf(i)
		if j, ok := seen[l]; ok {
			t.Fatalf("slots %d and %d share the look %+v", j, i, l)
		}
		seen[l] = i
	}
}

func TestAShippedStrategyLooksTheSameWhateverElseTheRunHolds(t *testing.T) {
	all := newStyles(crowd())
	for _, company := range [][]string{{"zookeeper-3"}, {"custom-1", "zookeeper-3", "single"}, {"etcd", "zookeeper-3", "wait"}} {
		st := newStyles(company)
		for _, name := range company {
			if strings.HasPrefix(name, "custom") {
				continue
			}
			if st.look(name, false) != all.look(name, false) {
				t.Errorf("%s looks %+v beside %v, %+v beside every strategy", name, st.look(name, false), company, all.look(name, false))
			}
		}
	}
}
