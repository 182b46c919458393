package sweep_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/sweep"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// TestSpreadsNameTheirCells: drawn keys may outnumber the clients (fixed ones beyond
// them are the per-client cell), a spread shows in the cell's name, and bad spreads name their field.
func TestSpreadsNameTheirCells(t *testing.T) {
	ms := sweep.Duration(20 * time.Millisecond)
	cfg := sweep.Config{Duration: sweep.Duration(time.Second), Sweeps: []sweep.Sweep{
		{Strategies: []string{"single"}, Clients: []int{4}, Keys: []string{"1000"}, Hold: []sweep.Duration{ms},
			KeyDist: "zipf:1", HoldDist: "exp"},
		{Strategies: []string{"single"}, Clients: []int{4}, Keys: []string{"1000", sweep.PerClient}, Hold: []sweep.Duration{ms}},
	}}
	cells, err := cfg.Cells()
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 2 {
		t.Fatalf("%d cells, want 2: %v", len(cells), cells)
	}
	drawn, fixed := cells[0], cells[1]
	if drawn.Keys != 1000 || !strings.HasSuffix(drawn.Name(), "/key-dist=zipf:1/hold-dist=exp") {
		t.Errorf("drawn cell: %d keys, name %s", drawn.Keys, drawn.Name())
	}
	if fixed.Keys != 4 || strings.Contains(fixed.Name(), "dist") {
		t.Errorf("fixed cell: %d keys (want per-client 4), name %s", fixed.Keys, fixed.Name())
	}
	bad := map[string]sweep.Sweep{
		"key-dist":                    {Strategies: []string{"single"}, KeyDist: "pareto"},
		"hold-dist":                   {Strategies: []string{"single"}, HoldDist: "lognormal", Hold: []sweep.Duration{ms}},
		"hold = 0 with hold-dist exp": {Strategies: []string{"single"}, HoldDist: "exp"},
		"the update workload":         {Strategies: []string{"single"}, KeyDist: "uniform", Workload: sweep.WorkloadUpdate},
		"key-dist with 10 keys": {Strategies: []string{"single"}, Clients: []int{4}, Keys: []string{"10"},
			Hold: []sweep.Duration{ms}, KeyDist: "zipf:1x3"},
	}
	for field, s := range bad {
		_, err := sweep.Config{Duration: sweep.Duration(time.Second), Sweeps: []sweep.Sweep{s}}.Cells()
		if err == nil || !strings.Contains(err.Error(), field) {
			t.Errorf("%s: error %v does not name it", field, err)
		}
	}
}

// TestSpreadCellRunsAndRecordsItsDraws: on a real server, a Zipf spread over more keys
// than clients runs, open loop and closed, and results.json records the draws. Its cells
// run 2 s: at 300 ms, load 48, the closed cell granted nothing.
func TestSpreadCellRunsAndRecordsItsDraws(t *testing.T) {
	testenv.RequireRedis(t)
	ms := sweep.Duration(time.Millisecond)
	cfg := sweep.Config{
		Duration: sweep.Duration(2 * time.Second), Seed: 5,
		Sweeps: []sweep.Sweep{
			{Strategies: []string{"single"}, Clients: []int{4}, Keys: []string{"100"}, Hold: []sweep.Duration{ms},
				KeyDist: "zipf:1", HoldDist: "exp"},
			{Strategies: []string{"single"}, Clients: []int{4}, Keys: []string{"100"}, Hold: []sweep.Duration{ms},
				KeyDist: "zipf:1", HoldDist: "lognormal:0.5", Load: "open", Rate: []float64{200}},
		},
	}
	back := executeAndReadBack(t, cfg)
	if len(back.Cells) != 2 {
		t.Fatalf("%d cells written, want 2", len(back.Cells))
	}
	for i, want := range []string{"exp", "lognormal:0.5"} {
		c := back.Cells[i]
		if c.KeyDist != "zipf:1" || c.HoldDist != want || c.Keys != 100 {
			t.Errorf("%s: recorded key_dist %q hold_dist %q keys %d", c.Name, c.KeyDist, c.HoldDist, c.Keys)
		}
		if c.Granted == 0 || len(c.Errors) > 0 {
			t.Errorf("%s: granted %d, errors %v", c.Name, c.Granted, c.Errors)
		}
	}
	for _, c := range back.Cells {
		// A grant is at least a SET and a release: the servers' own count cannot be lower.
		if sc := c.ServerCommands; sc == nil || sc.Executed < 2*c.Granted || sc.PerGrant < 2 {
			t.Errorf("%s: server commands %+v for %d grants", c.Name, sc, c.Granted)
		}
	}
	if f := back.Cells[0].Floor; f != nil {
		t.Errorf("closed cell has a queueing floor: %+v", f)
	}
	f := back.Cells[1].Floor
	if f == nil {
		t.Fatal("open Poisson cell over drawn keys has no queueing floor")
	}
	if !strings.HasPrefix(f.Method, "simulated") || f.Wait["p99"] <= 0 || len(f.Unbounded) > 0 {
		t.Errorf("lognormal holds at rho < 1: floor %+v", f)
	}
}

// TestQueueFloorOfACell: exponential holds take the exact M/M/1 floor, and a key past
// saturation makes its quantiles unbounded, named, never a number.
func TestQueueFloorOfACell(t *testing.T) {
	cell := sweep.Cell{Strategy: "single", Clients: 8, Keys: 10, Hold: 10 * time.Millisecond, Load: "open",
		Arrival: "poisson", Rate: 100, KeyDist: "zipf:1", HoldDist: "exp"}
	f, err := sweep.QueueFloor(cell, 1)
	if err != nil || f == nil {
		t.Fatalf("floor %+v, %v", f, err)
	}
	if f.Method != "exact M/M/1" || f.Wait["p99"] <= f.Wait["p50"] || f.SaturatedKeys != 0 {
		t.Errorf("exp holds at 100/s: %+v", f)
	}
	cell.Rate = 1000 // the hottest key (p = 0.34) is asked 341 times a second for 10ms: rho 3.4
	if f, err = sweep.QueueFloor(cell, 1); err != nil {
		t.Fatal(err)
	}
	if f.SaturatedKeys == 0 || !slices.Contains(f.Unbounded, "p99.9") || f.Wait["p99.9"] != 0 {
		t.Errorf("saturated: %+v", f)
	}
	cell.KeyDist = ""
	if f, err = sweep.QueueFloor(cell, 1); f != nil || err != nil {
		t.Errorf("fixed keys: floor %+v, %v; the model does not describe them", f, err)
	}
}

// TestOpenUpdateCellDrawsItsAccounts: a lock-free way's update cell runs open loop over
// drawn accounts (more rows than clients), records its rate and draws, and its audit
// finds every change applied; a closed update loop still refuses drawn accounts.
func TestOpenUpdateCellDrawsItsAccounts(t *testing.T) {
	testenv.NeedsServers(t)
	cfg := sweep.Config{
		// 2 s: in a 500 ms cell on a loaded machine none of the 20 updates due was applied.
		Duration: sweep.Duration(2 * time.Second), Warmup: sweep.Duration(200 * time.Millisecond), Seed: 5,
		Sweeps: []sweep.Sweep{{Strategies: []string{"atomic"}, Workload: sweep.WorkloadUpdate, Clients: []int{4},
			Keys: []string{"50"}, KeyDist: "zipf:1", Load: "open", Rate: []float64{100}, Arrival: "poisson"}},
	}
	back := executeAndReadBack(t, cfg)
	if len(back.Cells) != 1 {
		t.Fatalf("%d cells written, want 1", len(back.Cells))
	}
	c := back.Cells[0]
	if c.Keys != 50 || c.KeyDist != "zipf:1" || c.Load.Mode != "open" || c.Load.TargetRate != 100 || c.Update == nil {
		t.Fatalf("recorded %+v", c)
	}
	if u := c.Update; u.Applied == 0 || u.LostUpdates != 0 || int64(u.Intended) < u.Applied || len(c.Errors) > 0 {
		t.Errorf("update stats %+v, errors %v", u, c.Errors)
	}
	closed := cfg
	closed.Sweeps = []sweep.Sweep{{Strategies: []string{"atomic"}, Workload: sweep.WorkloadUpdate, Clients: []int{4},
		Keys: []string{"50"}, KeyDist: "zipf:1"}}
	if _, err := closed.Cells(); err == nil || !strings.Contains(err.Error(), "only in an open loop") {
		t.Errorf("a closed update loop over drawn accounts: %v", err)
	}
}

// executeAndReadBack runs every cell of cfg into a folder of its own and reads back the
// results.json it wrote.
func executeAndReadBack(t *testing.T, cfg sweep.Config) *resultsdir.Run {
	t.Helper()
	_, _, back := execute(t, cfg)
	return back
}

// execute runs every cell of cfg into a folder of its own: the folder, the run as the
// runner kept it, and as results.json reads back.
func execute(t *testing.T, cfg sweep.Config) (out string, run, back *resultsdir.Run) {
	t.Helper()
	cells, err := cfg.Cells()
	if err != nil {
		t.Fatal(err)
	}
	out = t.TempDir()
	run = &resultsdir.Run{Environment: sweep.Environment(cfg, []string{"test"})}
	r := &sweep.Runner{Config: cfg, Out: out, Run: run, Observer: &quietObserver{}}
	if err := r.Execute(context.Background(), cells); err != nil {
		t.Fatal(err)
	}
	if !run.Complete || len(run.Cells) != len(cells) {
		t.Fatalf("complete=%v with %d of %d cells", run.Complete, len(run.Cells), len(cells))
	}
	back, err = resultsdir.ReadRun(out)
	if err != nil {
		t.Fatal(err)
	}
	return out, run, back
}
