package compare

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/report/synth"
	"github.com/lockbench/lockbench/resultsdir"
)

func TestMannWhitneyMatchesHandCountedCases(t *testing.T) {
	for _, tc := range []struct {
		name string
		x, y []float64
		want float64
	}{
		// Full separation of 5 and 5: 2 orderings of 252 are this extreme.
		{"separated", []float64{1, 2, 3, 4, 5}, []float64{6, 7, 8, 9, 10}, 2.0 / 252},
		// Interleaved 3 and 3: U=3, P(U<=3) = 7/20.
		{"interleaved", []float64{1, 3, 5}, []float64{2, 4, 6}, 0.7},
		{"all tied", []float64{4, 4, 4}, []float64{4, 4, 4}, 1},
	} {
		if got := mannWhitneyP(tc.x, tc.y); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: p = %g, want %g", tc.name, got, tc.want)
		}
	}
	// Ties and larger samples go through the normal approximation: still tiny when separated.
	x, y := make([]float64, 30), make([]float64, 30)
	for i := range x {
		x[i], y[i] = float64(i%10), float64(100+i%10)
	}
	if p := mannWhitneyP(x, y); p > 1e-6 {
		t.Errorf("separated samples with ties: p = %g, want tiny", p)
	}
}

func synthRun(t *testing.T, o synth.Options) *resultsdir.Run {
	t.Helper()
	o.Small, o.Samples, o.NoHistograms = true, 300, true
	run, err := synth.Write(t.TempDir(), o)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func verdicts(res Result, metric string) map[string]int {
	n := map[string]int{}
	for _, r := range res.Rows {
		if strings.HasSuffix(r.Metric, metric) {
			n[r.Verdict]++
		}
	}
	return n
}

func TestTwiceSlowerIsFlaggedWithRepeats(t *testing.T) {
	old := synthRun(t, synth.Options{Seed: 1, Repeats: 5})
	slow := synthRun(t, synth.Options{Seed: 2, Repeats: 5, Slowdown: 2})
	res := Compare([]*resultsdir.Run{old}, []*resultsdir.Run{slow}, Options{})
	cells := len(res.Rows) / 3
	if cells == 0 || len(res.OnlyOld)+len(res.OnlyNew) != 0 {
		t.Fatalf("%d rows, only old %v, only new %v", len(res.Rows), res.OnlyOld, res.OnlyNew)
	}
	for _, m := range []string{"p50", "cycles/s"} {
		if v := verdicts(res, m); v[Worse] != cells {
			t.Errorf("%s: verdicts %v, want all %d cells worse", m, v, cells)
		}
	}
	for _, r := range res.Rows {
		if strings.HasSuffix(r.Metric, "p50") && (r.Delta < 0.8 || r.Delta > 1.2) {
			t.Errorf("%s %s: delta %+.0f%%, want about +100%%", r.Cell, r.Metric, 100*r.Delta)
		}
		if !strings.HasPrefix(r.Basis, "p=") {
			t.Errorf("%s: basis %q, want a p-value", r.Cell, r.Basis)
		}
	}
}

func TestNoiseAloneIsMostlyNotFlagged(t *testing.T) {
	a := synthRun(t, synth.Options{Seed: 1, Repeats: 5})
	b := synthRun(t, synth.Options{Seed: 2, Repeats: 5})
	res := Compare([]*resultsdir.Run{a}, []*resultsdir.Run{b}, Options{})
	flagged := 0
	for _, r := range res.Rows {
		if r.Verdict == Worse || r.Verdict == Better {
			flagged++
		}
	}
	// At alpha 0.05 about one row in twenty is flagged by chance; far more means a broken test.
	if flagged*5 > len(res.Rows) {
		t.Errorf("%d of %d rows flagged between two runs of the same model", flagged, len(res.Rows))
	}
}

func TestTwiceSlowerWithoutRepeatsIsFlaggedAgainstTheThreshold(t *testing.T) {
	old := synthRun(t, synth.Options{Seed: 1})
	slow := synthRun(t, synth.Options{Seed: 1, Slowdown: 2})
	res := Compare([]*resultsdir.Run{old}, []*resultsdir.Run{slow}, Options{})
	if v := verdicts(res, "p99"); v[Worse] != len(res.Rows)/3 {
		t.Errorf("p99 verdicts %v, want all worse", v)
	}
	var out bytes.Buffer
	if err := res.Write(&out, "a", "b"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "noise cannot be measured") || !strings.Contains(out.String(), "+100.0%") {
		t.Errorf("output lacks the no-repeats note or a +100%% change:\n%s", out.String())
	}
}

func TestIdenticalRunsAreUnchanged(t *testing.T) {
	run := synthRun(t, synth.Options{Seed: 3, Repeats: 2})
	res := Compare([]*resultsdir.Run{run}, []*resultsdir.Run{run}, Options{})
	if !strings.HasPrefix(res.Summary(), "unchanged") {
		t.Errorf("summary %q, want unchanged", res.Summary())
	}
	for _, r := range res.Rows {
		if r.Verdict != Unchanged || r.Delta != 0 {
			t.Errorf("%s %s: %s %+g", r.Cell, r.Metric, r.Verdict, r.Delta)
		}
	}
}

func TestCellsOnOneSideAndEnvironmentChangesAreListed(t *testing.T) {
	a := synthRun(t, synth.Options{Seed: 1})
	b := *a
	b.Cells = b.Cells[1:]
	b.Environment.Cores = 4
	res := Compare([]*resultsdir.Run{a}, []*resultsdir.Run{&b}, Options{})
	if len(res.OnlyOld) != 1 || res.OnlyOld[0] != a.Cells[0].Name || len(res.OnlyNew) != 0 {
		t.Errorf("only old %v, only new %v", res.OnlyOld, res.OnlyNew)
	}
	if len(res.EnvironmentChanges) != 1 || !strings.Contains(res.EnvironmentChanges[0], "cores") {
		t.Errorf("environment changes %v, want the core count", res.EnvironmentChanges)
	}
	if strings.HasPrefix(res.Summary(), "unchanged") {
		t.Errorf("a missing cell still reads unchanged: %s", res.Summary())
	}
}
