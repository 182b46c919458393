package decision

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lockbench/lockbench/plots"
)

func TestCostVsLossDrawsBothFormatsAndNothingWithoutPoints(t *testing.T) {
	dir := t.TempDir()
	fig, err := WriteCostVsLoss(dir, fixtureStores, nil)
	if err != nil || fig != nil {
		t.Fatalf("no points: figure %v, err %v", fig, err)
	}
	if _, err := os.Stat(filepath.Join(dir, plots.Dir)); !os.IsNotExist(err) {
		t.Error("no points left a figures folder behind")
	}
	fig, err = WriteCostVsLoss(dir, fixtureStores, []CostLossPoint{
		{Strategy: "single", Series: "fenced", CostMs: 0.5, WrongPer1000: 0},
		{Strategy: "pg-advisory", Series: "fenced", CostMs: 0.51, WrongPer1000: 0}, // crowded: its label is lifted
		{Strategy: "single", Series: "read-modify-write", CostMs: 0.5, WrongPer1000: 2000},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(fig.Files) != 2 || filepath.Ext(fig.Files[0]) != ".png" || filepath.Ext(fig.Files[1]) != ".svg" {
		t.Fatalf("files %v", fig.Files)
	}
	for _, f := range fig.Files {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	lifts := labelLifts([]CostLossPoint{{Strategy: "a", CostMs: 1}, {Strategy: "b", CostMs: 1.05}, {Strategy: "c", CostMs: 10}})
	if lifts[CostLossPoint{Strategy: "b", CostMs: 1.05}] != 1 || lifts[CostLossPoint{Strategy: "c", CostMs: 10}] != 0 {
		t.Errorf("lifts %v: b shares a's place, c does not", lifts)
	}
}
