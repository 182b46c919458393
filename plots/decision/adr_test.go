package decision

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/plots"
	"gonum.org/v1/plot/plotter"
)

func adrInputs() (*ADRCost, []HeatMap) {
	cost := &ADRCost{Name: "adr-cost", Title: "t", XLabel: "x", YLabel: "y", BudgetMs: 5, BudgetLabel: "budget", Threshold: 10, ThresholdLabel: "threshold",
		Points: []ADRPoint{{Label: "single", PerYear: 2.5, Seen: true, CostMs: 0.2}, {Label: "etcd + fence", PerYear: 0.3, CostMs: 1.3}}}
	heat := HeatMap{Name: "adr-heat", Title: "h", XLabel: "J", YLabel: "k", LogX: true,
		Cells:    []HeatCell{{X: 2, Y: 1, K: 0, N: 4}, {X: 30, Y: 1, K: 0, N: 4}, {X: 2, Y: 3, K: 0, N: 4}, {X: 30, Y: 3, K: 4, N: 4}},
		Boundary: plotter.XYs{{X: 12, Y: 3}}, BoundaryLabel: "model"}
	return cost, []HeatMap{heat}
}

func TestADRFiguresAreBothFormatsAndTheSameBytesOnRerender(t *testing.T) {
	cost, heats := adrInputs()
	var first [][]byte
	for run := 0; run < 2; run++ {
		dir := t.TempDir()
		figs, err := WriteADRFigures(dir, cost, heats, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(figs) != 2 {
			t.Fatalf("%d figures", len(figs))
		}
		var got [][]byte
		for _, f := range figs {
			if len(f.Files) != 2 || !strings.HasSuffix(f.Files[0], ".png") || !strings.HasSuffix(f.Files[1], ".svg") {
				t.Fatalf("files %v", f.Files)
			}
			for _, rel := range f.Files {
				b, err := os.ReadFile(filepath.Join(dir, rel))
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, b)
			}
		}
		if run == 1 {
			for i := range got {
				if !bytes.Equal(got[i], first[i]) {
					t.Fatalf("file %d differs on rerender", i)
				}
			}
		}
		first = got
	}
}

// Log axes cannot show zero: a zero count a year or a zero cost is refused, and
// nothing at all is written.
func TestADRFigureRefusesWhatALogAxisCannotDrawAndWritesNothing(t *testing.T) {
	cost, heats := adrInputs()
	cost.Points = append(cost.Points, ADRPoint{Label: "bare zero", PerYear: 0, CostMs: 1})
	dir := t.TempDir()
	if _, err := WriteADRFigures(dir, cost, heats, nil); err == nil || !strings.Contains(err.Error(), "bare zero") {
		t.Fatalf("want an error naming the point, got %v", err)
	}
	heats[0].Cells[0].X = 0
	if _, err := WriteADRFigures(dir, nil, heats, nil); err == nil {
		t.Fatal("a zero on a log x axis was drawn")
	}
	if _, err := os.Stat(filepath.Join(dir, plots.Dir)); !os.IsNotExist(err) {
		t.Fatalf("bad input left figures behind: %v", err)
	}
}
