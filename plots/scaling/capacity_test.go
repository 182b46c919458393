package scaling

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"gonum.org/v1/plot/plotter"

	"github.com/lockbench/lockbench/capacity"
	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/plots/plotstest"
	"github.com/lockbench/lockbench/resultsdir"
)

func TestCapacityFiguresAreWrittenTheSameForTheSameInput(t *testing.T) {
	knees := []KneeSeries{{Strategy: "single", Kept: 2000, Broke: 2100, Points: []KneePoint{
		{1000, time.Millisecond, true}, {2000, 3 * time.Millisecond, true}, {4000, 20 * time.Millisecond, false}, {2100, 6 * time.Millisecond, false}}}}
	usl := []USLSeries{{Strategy: "single", Label: "single", Points: plotter.XYs{{X: 1, Y: 100}, {X: 2, Y: 190}, {X: 4, Y: 300}, {X: 8, Y: 320}},
		Fit: func(n float64) float64 { return 100 * n / (1 + 0.1*(n-1) + 0.01*n*(n-1)) }}}
	lines := []LineSeries{{Label: "redlock, 8 clients", Style: "redlock", Points: plotter.XYs{{X: 3, Y: 1}, {X: 5, Y: 1.4}, {X: 7, Y: 2}}}}
	var first [][]byte
	for round := 0; round < 2; round++ {
		dir := t.TempDir()
		figs := []func() (plots.Figure, error){
			func() (plots.Figure, error) {
				return KneeFigure(dir, fixtureStores, "knee", "64 clients", "p99 acquire", 5*time.Millisecond, knees)
			},
			func() (plots.Figure, error) { return USLFigure(dir, fixtureStores, "usl", "a key per client", usl) },
			func() (plots.Figure, error) {
				return ScalingFigure(dir, "nodes", "p99 against nodes", "nodes", "caption", lines)
			},
		}
		var got [][]byte
		for _, draw := range figs {
			f, err := draw()
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Files) != 2 {
				t.Fatalf("%s: files %v, want a PNG and an SVG", f.Name, f.Files)
			}
			for _, rel := range f.Files {
				data, err := os.ReadFile(filepath.Join(dir, rel))
				if err != nil || len(data) == 0 {
					t.Fatalf("%s: %v", rel, err)
				}
				got = append(got, data)
			}
		}
		if round == 0 {
			first = got
			continue
		}
		for i := range got {
			if !bytes.Equal(got[i], first[i]) {
				t.Errorf("file %d differs between two renderings of the same input", i)
			}
		}
	}
}

// A capacity record's searches of one condition make one knee figure, named for the
// report to embed, both formats written.
func TestKneeFiguresDrawOneFigurePerSearchedCondition(t *testing.T) {
	dir := t.TempDir()
	probes := func(kept, broke float64) []capacity.ProbeRecord {
		return []capacity.ProbeRecord{{Offered: kept, Latency: resultsdir.Duration(time.Millisecond), Kept: true}, {Offered: broke, Latency: resultsdir.Duration(7 * time.Millisecond)}}
	}
	rec := capacity.Record{SLO: "p99=5ms", Metric: "acquire", Percentile: "p99", Budget: resultsdir.Duration(5 * time.Millisecond),
		Searches: []capacity.SearchRecord{
			{Strategy: "single", Clients: 64, Keys: 64, Arrival: "poisson", Kept: 3000, Broke: 3100, GeneratorBound: true, Probes: probes(3000, 3100)},
			{Strategy: "redlock", Clients: 64, Keys: 64, Arrival: "poisson", Kept: 1900, Broke: 1990, Probes: probes(1900, 1990)},
		}}
	figs, err := KneeFigures(dir, fixtureStores, rec)
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != 1 || figs[0].Name != "capacity-knee" || len(figs[0].Files) != 2 || figs[0].Files[0] != "figures/capacity-knee.png" {
		t.Fatalf("figures %+v, want one capacity-knee with a PNG and an SVG", figs)
	}
	for _, rel := range figs[0].Files {
		if _, err := os.Stat(filepath.Join(dir, rel)); err != nil {
			t.Error(err)
		}
	}
	rec.Searches[1].Clients = 8
	if figs, err = KneeFigures(t.TempDir(), fixtureStores, rec); err != nil || len(figs) != 2 || figs[1].Name != "capacity-knee-2_clients=8_keys=64" {
		t.Errorf("two conditions: %+v, %v; want two figures numbered by condition", figs, err)
	}
}

func TestEveryCapacityFigureGivesEachSeriesItsOwnLook(t *testing.T) {
	dir := t.TempDir()
	var knees []KneeSeries
	var usl []USLSeries
	var lines []LineSeries
	for i, name := range plotstest.Crowd(fixtureStores) {
		y := float64(i + 1)
		knees = append(knees, KneeSeries{Strategy: name, Kept: 1000 * y, Points: []KneePoint{{1000 * y, time.Millisecond, true}, {2000 * y, 9 * time.Millisecond, false}}})
		usl = append(usl, USLSeries{Strategy: name, Label: name, Points: plotter.XYs{{X: 1, Y: y}, {X: 8, Y: 4 * y}},
			Fit: func(n float64) float64 { return y * n / (1 + 0.1*(n-1)) }})
		lines = append(lines, LineSeries{Label: name, Style: name, Points: plotter.XYs{{X: 3, Y: y}, {X: 5, Y: 2 * y}}})
	}
	for _, draw := range []func() (plots.Figure, error){
		func() (plots.Figure, error) {
			return KneeFigure(dir, fixtureStores, "knee", "64 clients", "p99", 5*time.Millisecond, knees)
		},
		func() (plots.Figure, error) { return USLFigure(dir, fixtureStores, "usl", "a key per client", usl) },
		func() (plots.Figure, error) {
			return ScalingFigure(dir, "nodes", "p99 against nodes", "nodes", "caption", lines)
		},
	} {
		f, err := draw()
		if err != nil {
			t.Fatal(err)
		}
		plotstest.AssertOwnLooks(t, f)
	}
}
