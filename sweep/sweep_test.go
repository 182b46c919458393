package sweep_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/sweep"
	"github.com/lockbench/lockbench/topologies/testenv"
)

func TestConfigRoundTripsThroughYAML(t *testing.T) {
	for name, cfg := range map[string]sweep.Config{"quick": sweep.QuickConfig(), "default": sweep.DefaultConfig()} {
		data, err := cfg.YAML()
		if err != nil {
			t.Fatal(err)
		}
		back, err := sweep.ParseYAML(data)
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, data)
		}
		if !reflect.DeepEqual(cfg, back) {
			t.Errorf("%s config changed through YAML:\n%+v\n%+v", name, cfg, back)
		}
	}
}

func TestYAMLErrorsNameTheField(t *testing.T) {
	for field, doc := range map[string]string{
		"clientz":  "sweeps:\n  - strategies: [single]\n    clientz: [1]\n",
		"duration": "duration: fast\n",
		"clients":  "sweeps:\n  - clients: [one]\n",
		"seed":     "seed: [1, 2]\n",
	} {
		_, err := sweep.ParseYAML([]byte(doc))
		if err == nil || !strings.Contains(err.Error(), field) {
			t.Errorf("%s: error %v does not name the field", field, err)
		}
	}
}

func TestCellsExpandValidateAndGroup(t *testing.T) {
	cfg := sweep.Config{Duration: sweep.Duration(time.Second), Sweeps: []sweep.Sweep{
		{Strategies: []string{"redlock", "single"}, Clients: []int{1, 8}, Keys: []string{"1", sweep.PerClient}},
		{Strategies: []string{"single"}, Clients: []int{8}, Keys: []string{"1"}}, // overlaps the first
	}}
	cells, err := cfg.Cells()
	if err != nil {
		t.Fatal(err)
	}
	// clients=1 gives one cell (1 key = per-client), clients=8 two: 3 per strategy.
	if len(cells) != 6 {
		t.Fatalf("%d cells, want 6: %v", len(cells), cells)
	}
	for i := 1; i < len(cells); i++ {
		if cells[i].Strategy != cells[i-1].Strategy && cells[i].Strategy == cells[0].Strategy {
			t.Errorf("strategy %s split into two groups: topology would start twice", cells[i].Strategy)
		}
	}
	bad := map[string]sweep.Sweep{
		"strategies":                        {Strategies: []string{"paxos"}},
		"clients":                           {Strategies: []string{"single"}, Clients: []int{0}},
		"keys":                              {Strategies: []string{"single"}, Keys: []string{"-1"}},
		"ttl":                               {Strategies: []string{"single"}, TTL: []sweep.Duration{0}},
		"rate":                              {Strategies: []string{"single"}, Load: "open", Rate: []float64{-1}},
		"load":                              {Strategies: []string{"single"}, Load: "bursty"},
		"network":                           {Strategies: []string{"single"}, Network: []string{"dialup"}},
		"strategies: single is named twice": {Strategies: []string{"single", "single"}},
		"rate = +Inf":                       {Strategies: []string{"single"}, Load: "open", Rate: []float64{math.Inf(1)}},
		// Any axis naming a value twice would measure two cells under one name.
		"clients: 8 is named twice":    {Strategies: []string{"single"}, Clients: []int{8, 8}},
		"keys: 1 is named twice":       {Strategies: []string{"single"}, Keys: []string{"1", "1"}},
		"network: none is named twice": {Strategies: []string{"single"}, Network: []string{"none", "none"}},
		"hold: 1ms is named twice":     {Strategies: []string{"single"}, Hold: []sweep.Duration{sweep.Duration(time.Millisecond), sweep.Duration(time.Millisecond)}},
		"ttl: 1s is named twice":       {Strategies: []string{"single"}, TTL: []sweep.Duration{sweep.Duration(time.Second), sweep.Duration(time.Second)}},
		"rate: 1000 is named twice":    {Strategies: []string{"single"}, Load: "open", Rate: []float64{1000, 1e3}},
	}
	for field, s := range bad {
		_, err := sweep.Config{Duration: sweep.Duration(time.Second), Sweeps: []sweep.Sweep{s}}.Cells()
		if err == nil || !strings.Contains(err.Error(), field) {
			t.Errorf("%s: error %v does not name the field", field, err)
		}
	}
}

type quietObserver struct{ done int }

func (*quietObserver) Started(int)                     {}
func (*quietObserver) CellStarted(int, sweep.Cell)     {}
func (o *quietObserver) CellDone(int, resultsdir.Cell) { o.done++ }

func TestRunnerWritesAResultsFolderThatReadsBack(t *testing.T) {
	testenv.RequireRedis(t)
	// At 300 ms and 100 ms of warm-up, at load 36, the open cell's setup outlasted both and
	// nothing was measured: its cells are sized so that a stall cannot eat them.
	cfg := sweep.Config{
		Duration: sweep.Duration(1500 * time.Millisecond), Warmup: sweep.Duration(300 * time.Millisecond), Seed: 3,
		Repeat: 2, Intervals: 3,
		Sweeps: []sweep.Sweep{
			{Strategies: []string{"single"}, Clients: []int{4}, Keys: []string{"1", sweep.PerClient}, Network: []string{"none", "uniform:1ms"}},
			{Strategies: []string{"single"}, Clients: []int{4}, Keys: []string{sweep.PerClient}, Load: "open", Rate: []float64{200}, Arrival: "constant"},
		},
	}
	out, run, back := execute(t, cfg)
	if !reflect.DeepEqual(normalize(run), normalize(back)) {
		t.Errorf("results.json does not read back into the same records")
	}
	for i, c := range back.Cells {
		if c.Granted == 0 || len(c.Errors) > 0 {
			t.Errorf("%s: granted %d, errors %v", c.Name, c.Granted, c.Errors)
		}
		if want := 1 + 2*i/len(back.Cells); c.Repeat != want {
			t.Errorf("cell %d %s: repeat %d, want %d", i, c.Name, c.Repeat, want)
		}
		checkIntervals(t, out, c, 3)
		if len(c.Histograms) == 0 { // the checks below would pass over nothing
			t.Errorf("%s: no histogram logs", c.Name)
		}
		for metric, rel := range c.Histograms {
			h, err := resultsdir.ReadHistogram(out, rel)
			if err != nil {
				t.Fatal(err)
			}
			if h.TotalCount() != c.Latency[metric].Count {
				t.Errorf("%s %s: log holds %d values, summary says %d", c.Name, metric, h.TotalCount(), c.Latency[metric].Count)
			}
		}
		// Recorded where proxies ran, and only there; its size is a measurement of two medians
		// that a loaded machine moves (-1.2 ms once at load 30), asserted nowhere.
		if _, measured := c.Network.MeasuredAddedRTT["master-0"]; measured != (c.Network.Profile == "uniform") {
			t.Errorf("%s (network %q): added round trip measured %v", c.Name, c.Network.Profile, c.Network.MeasuredAddedRTT)
		}
		if c.Load.Mode == "open" && (c.Load.AchievedRate <= 0 || c.Load.TargetRate != 200) {
			t.Errorf("%s: open loop rates %+v", c.Name, c.Load)
		}
	}
}

// checkIntervals asserts that a cell holds k intervals that add up to the cell, and
// that each histogram log holds one interval histogram per interval.
func checkIntervals(t *testing.T, dir string, c resultsdir.Cell, k int) {
	t.Helper()
	if len(c.Intervals) != k {
		t.Errorf("%s: %d intervals, want %d", c.Name, len(c.Intervals), k)
		return
	}
	var granted int64
	var elapsed time.Duration
	counts := map[string]int64{}
	for _, iv := range c.Intervals {
		granted += iv.Granted
		elapsed += iv.Elapsed.D()
		for metric, s := range iv.Latency {
			counts[metric] += s.Count
		}
	}
	if granted != c.Granted || elapsed != c.Elapsed.D() {
		t.Errorf("%s: intervals hold %d granted over %v, the cell %d over %v", c.Name, granted, elapsed, c.Granted, c.Elapsed)
	}
	for metric, rel := range c.Histograms {
		if counts[metric] != c.Latency[metric].Count {
			t.Errorf("%s %s: intervals count %d values, the cell %d", c.Name, metric, counts[metric], c.Latency[metric].Count)
		}
		parts, err := resultsdir.ReadHistogramIntervals(dir, rel)
		if err != nil || len(parts) != k {
			t.Errorf("%s %s: log holds %d interval histograms (%v), want %d", c.Name, metric, len(parts), err, k)
		}
	}
}

// normalize drops what JSON cannot carry exactly (monotonic clock readings).
func normalize(r *resultsdir.Run) *resultsdir.Run {
	c := *r
	c.Started, c.Finished = c.Started.Round(0).UTC(), c.Finished.Round(0).UTC()
	return &c
}

func TestInterruptedRunKeepsFinishedCells(t *testing.T) {
	testenv.RequireRedis(t)
	cfg := sweep.Config{Duration: sweep.Duration(200 * time.Millisecond), Sweeps: []sweep.Sweep{
		{Strategies: []string{"single"}, Clients: []int{1, 2, 3, 4, 5, 6}, Keys: []string{"1"}},
	}}
	cells, err := cfg.Cells()
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	obs := &cancelAfter{n: 2, cancel: cancel}
	run := &resultsdir.Run{Environment: sweep.Environment(cfg, nil)}
	if err := (&sweep.Runner{Config: cfg, Out: out, Run: run, Observer: obs}).Execute(ctx, cells); err != nil {
		t.Fatal(err)
	}
	back, err := resultsdir.ReadRun(out)
	if err != nil {
		t.Fatal(err)
	}
	if back.Complete || len(back.Cells) != 2 {
		t.Errorf("after cancel at cell 2: complete=%v with %d cells; want incomplete with 2", back.Complete, len(back.Cells))
	}
	// The folder holds the kept cells' logs and nothing of the cell never measured.
	named := map[string]bool{}
	for _, c := range back.Cells {
		for metric, rel := range c.Histograms {
			named[rel] = true
			if h, err := resultsdir.ReadHistogram(out, rel); err != nil || h.TotalCount() != c.Latency[metric].Count {
				t.Errorf("%s %s: log %s reads %v; want the cell's %d values", c.Name, metric, rel, err, c.Latency[metric].Count)
			}
		}
	}
	logs, _ := filepath.Glob(filepath.Join(out, resultsdir.HistogramsDir, "*"))
	if len(named) == 0 || len(logs) != len(named) {
		t.Errorf("histogram logs on disk %v; want exactly the %d the kept cells name", logs, len(named))
	}
	csv, _ := os.ReadFile(filepath.Join(out, resultsdir.CSVFile))
	if rows := strings.Count(string(csv), "\n"); rows != 1+len(back.Cells) {
		t.Errorf("results.csv has %d lines; want a header and %d cells", rows, len(back.Cells))
	}
}

type cancelAfter struct {
	n, done int
	cancel  func()
}

func (*cancelAfter) Started(int)                 {}
func (*cancelAfter) CellStarted(int, sweep.Cell) {}
func (c *cancelAfter) CellDone(int, resultsdir.Cell) {
	if c.done++; c.done == c.n {
		c.cancel()
	}
}
