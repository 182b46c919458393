package latency

import (
	"math"
	"strings"
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/lockbench/lockbench/plots/plotstest"
	"github.com/lockbench/lockbench/report/synth"
	"github.com/lockbench/lockbench/resultsdir"
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

// crowdedRun is a synthetic run whose every cell is measured again under each name of
// crowd, so each report figure has more series than the palette has colours.
func crowdedRun(t *testing.T, dir string) *resultsdir.Run {
	run, err := synth.Write(dir, synth.Options{Stores: fixtureStores, Seed: 1, Samples: 300})
	if err != nil {
		t.Fatal(err)
	}
	var cells []resultsdir.Cell
	for _, c := range run.Cells {
		if c.Strategy != "redlock" {
			continue
		}
		for _, name := range plotstest.Crowd(fixtureStores) {
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
	figs, _, err := plotstest.Rendered(build(dir, fixtureStores, crowdedRun(t, dir)))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, f := range figs {
		kinds[strings.SplitN(f.Name, "_", 2)[0]] = true
		plotstest.AssertOwnLooks(t, f)
	}
	for _, kind := range []string{"spectrum", "throughput-contended", "throughput-uncontended", "network", "redlock-slow-node", "open-loop"} {
		if !kinds[kind] {
			t.Errorf("no %s figure drawn: the check above did not see it (got %v)", kind, kinds)
		}
	}
}
