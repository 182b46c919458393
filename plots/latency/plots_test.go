package latency

import (
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/plots/plotstest"
	"github.com/lockbench/lockbench/report/synth"
	"github.com/lockbench/lockbench/resultsdir"
)

func TestWriteAllDrawsEachKindWithOneSeriesPerStrategy(t *testing.T) {
	dir := t.TempDir()
	run, err := synth.Write(dir, synth.Options{Stores: fixtureStores, Seed: 1, Samples: 500})
	if err != nil {
		t.Fatal(err)
	}
	figs, err := WriteAll(dir, fixtureStores, run)
	if err != nil {
		t.Fatal(err)
	}
	all := []string{"single", "wait", "sentinel", "cluster", "cluster-wait", "redlock", "redlock-failfast", "etcd"}
	// The cluster's client cannot run behind the latency proxies: no network cells.
	proxied := []string{"single", "wait", "sentinel", "redlock", "redlock-failfast", "etcd"}
	want := map[string][]string{
		"spectrum_clients=8_keys=1_hold=0s_ttl=10s":          all,
		"throughput-contended":                               all,
		"throughput-uncontended":                             all,
		"network_clients=8_keys=8_hold=0s_ttl=10s":           proxied,
		"redlock-slow-node_clients=8_keys=8_hold=0s_ttl=10s": {"redlock p99", "redlock p50", "redlock-failfast p99", "redlock-failfast p50"},
		"open-loop": {"single", "wait", "redlock", "etcd", saturatedLabel},
	}
	got := map[string]plots.Figure{}
	for _, f := range figs {
		got[f.Name] = f
	}
	for name, series := range want {
		f, ok := got[name]
		if !ok {
			t.Errorf("no figure %s; got %v", name, plotstest.Names(figs))
			continue
		}
		if got := ofKnown(f.Series, all); strings.Join(got, ",") != strings.Join(series, ",") {
			t.Errorf("%s: series %v, want %v", name, got, series)
		}
		if len(f.Files) != 2 || !strings.HasSuffix(f.Files[0], ".png") || !strings.HasSuffix(f.Files[1], ".svg") {
			t.Fatalf("%s: files %v, want a PNG and an SVG", name, f.Files)
		}
		pf, err := os.Open(filepath.Join(dir, f.Files[0]))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(pf)
		pf.Close()
		if err != nil {
			t.Errorf("%s: not a PNG: %v", f.Files[0], err)
		} else if b := img.Bounds(); b.Dx() < 400 || b.Dy() < 200 {
			t.Errorf("%s: %dx%d is too small to read", f.Files[0], b.Dx(), b.Dy())
		}
		// Every legend entry is one <text> in the SVG: count those that name a series.
		wanted := map[string]int{}
		for _, s := range series {
			wanted[s] = 0
		}
		for _, text := range plotstest.SVGTexts(t, filepath.Join(dir, f.Files[1])) {
			if _, ok := wanted[text]; ok {
				wanted[text]++
			}
		}
		for s, n := range wanted {
			if n != 1 {
				t.Errorf("%s: legend entry %q drawn %d times, want once", f.Files[1], s, n)
			}
		}
		if f.Caption == "" {
			t.Errorf("%s has no caption", name)
		}
	}
}

// ofKnown keeps the legend entries of the strategies in known (and what is not a
// strategy's), in order: a store registered since joins the figures without an edit here.
func ofKnown(series, known []string) []string {
	var out []string
	for _, s := range series {
		if name, _, _ := strings.Cut(s, " "); s == saturatedLabel || slices.Contains(known, name) {
			out = append(out, s)
		}
	}
	return out
}

// smallRun writes the reduced synthetic run of seed into dir, 300 samples a histogram.
func smallRun(t *testing.T, dir string, seed uint64) *resultsdir.Run {
	t.Helper()
	run, err := synth.Write(dir, synth.Options{Stores: fixtureStores, Seed: seed, Small: true, Samples: 300})
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func TestSameInputGivesSameBytes(t *testing.T) {
	src := t.TempDir()
	run := smallRun(t, src, 2)
	plotstest.AssertSameBytes(t, func() ([]plots.Drawn, error) { return build(src, fixtureStores, run) })
}

func TestFigureWithoutDataIsSkipped(t *testing.T) {
	dir := t.TempDir()
	run := smallRun(t, dir, 3)
	// Keep one client count, no network and no open loop: only a spectrum has data.
	var kept []resultsdir.Cell
	for _, c := range run.Cells {
		if c.Clients == 8 && c.Keys == 1 && c.Network.Profile == "none" && c.Load.Mode == "closed" {
			kept = append(kept, c)
		}
	}
	run.Cells = kept
	figs, err := WriteAll(dir, fixtureStores, run)
	if err != nil {
		t.Fatal(err)
	}
	if got := plotstest.Names(figs); len(got) != 1 || got[0] != "spectrum_clients=8_keys=1_hold=0s_ttl=10s" {
		t.Errorf("figures %v, want only the 8-client spectrum", got)
	}
	files, _ := filepath.Glob(filepath.Join(dir, plots.Dir, "*"))
	sort.Strings(files)
	if len(files) != 2 {
		t.Errorf("figures folder holds %v, want one PNG and one SVG", files)
	}
}

func TestCorruptHistogramIsNamedAndNothingIsWritten(t *testing.T) {
	dir := t.TempDir()
	run := smallRun(t, dir, 4)
	bad := run.Cells[len(run.Cells)/2].Histograms[resultsdir.MetricAcquire]
	for i := range run.Cells { // the spectrum reads this cell's log whatever its condition
		if run.Cells[i].Load.Mode == "closed" && run.Cells[i].Network.Profile == "none" {
			bad = run.Cells[i].Histograms[resultsdir.MetricAcquire]
		}
	}
	if err := os.WriteFile(filepath.Join(dir, bad), []byte("#[StartTime: 1]\n0.1,1.0,1.0,NOT-BASE64!!\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := WriteAll(dir, fixtureStores, run)
	if err == nil || !strings.Contains(err.Error(), filepath.Base(bad)) {
		t.Fatalf("error %v does not name %s", err, bad)
	}
	if _, err := os.Stat(filepath.Join(dir, plots.Dir)); !os.IsNotExist(err) {
		t.Errorf("figures folder exists after a failed render: %v", err)
	}
}

func TestStrategyWithoutLatencyIsLeftOutAndNamed(t *testing.T) {
	dir := t.TempDir()
	run := smallRun(t, dir, 5)
	for i := range run.Cells { // redlock never acquires with 8 clients on one key
		c := &run.Cells[i]
		if c.Strategy == "redlock" && c.Clients == 8 && c.Keys == 1 && c.Network.Profile == "none" {
			c.Granted, c.CyclesPerSecond = 0, 0
			c.Latency[resultsdir.MetricAcquire] = resultsdir.Summary{}
			delete(c.Histograms, resultsdir.MetricAcquire)
		}
	}
	figs, err := WriteAll(dir, fixtureStores, run)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range figs {
		if f.Name != "spectrum_clients=8_keys=1_hold=0s_ttl=10s" {
			continue
		}
		if strings.Join(f.Series, ",") != "single,wait,redlock-failfast,etcd" || !strings.Contains(f.Caption, "never acquired): redlock.") {
			t.Errorf("series %v, caption %q", f.Series, f.Caption)
		}
		return
	}
	t.Errorf("no 8-client contended spectrum among %v", plotstest.Names(figs))
}

// The waiting figures draw each measure a contended condition's cells recorded, one
// column a strategy: the hand-off, commands per grant and fairness given here for all
// but etcd; no crash hand-off was given, so none is drawn.
func TestWaitingFiguresDrawWhatTheCellsRecorded(t *testing.T) {
	dir := t.TempDir()
	run, err := synth.Write(dir, synth.Options{Stores: fixtureStores, Seed: 1, Samples: 200})
	if err != nil {
		t.Fatal(err)
	}
	var given []string
	for i := range run.Cells {
		c := &run.Cells[i]
		if c.Clients != 8 || c.Keys != 1 || c.Network.Profile != "none" || c.Load.Mode == "open" || c.Strategy == "etcd" {
			continue
		}
		given = append(given, c.Strategy)
		c.Latency[resultsdir.MetricHandoff] = resultsdir.Summary{Count: 100, P50: resultsdir.Duration(300 * time.Microsecond),
			P99: resultsdir.Duration(2 * time.Millisecond)}
		c.ServerCommands = &resultsdir.ServerCommands{Executed: 1000, PerGrant: 5}
		c.Fairness = &resultsdir.Fairness{Clients: 8, Jain: 0.9}
	}
	figs, err := WriteAll(dir, fixtureStores, run)
	if err != nil {
		t.Fatal(err)
	}
	drawn := map[string][]string{}
	for _, f := range figs {
		if kind, _, _ := strings.Cut(f.Name, "_"); strings.HasPrefix(kind, "waiting-") {
			drawn[kind] = f.Series
		}
	}
	for _, kind := range []string{"waiting-handoff", "waiting-commands", "waiting-fairness"} {
		if got := slices.Sorted(slices.Values(drawn[kind])); !slices.Equal(got, slices.Sorted(slices.Values(given))) {
			t.Errorf("%s: series %v, want %v", kind, got, given)
		}
	}
	if _, ok := drawn["waiting-crash-handoff"]; ok || len(given) < 2 {
		t.Errorf("a crash hand-off figure without data (%d strategies given)", len(given))
	}
}
