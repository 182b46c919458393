package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/sweep"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

type silentObserver struct{}

func (silentObserver) Started(int)                   {}
func (silentObserver) CellStarted(int, sweep.Cell)   {}
func (silentObserver) CellDone(int, resultsdir.Cell) {}

// runShares measures cfg against topo as workers 0..of-1 at once (of = 0: one whole
// run) and returns their folders.
func runShares(t *testing.T, topo topologies.Topology, cfg sweep.Config, of int) []string {
	t.Helper()
	cells, err := cfg.Cells()
	if err != nil {
		t.Fatal(err)
	}
	n := max(of, 1)
	dirs, errs := make([]string, n), make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		dirs[i] = t.TempDir()
		if err := sweep.SaveConfig(dirs[i], cfg); err != nil {
			t.Fatal(err)
		}
		r := &sweep.Runner{Config: cfg, Out: dirs[i], Observer: silentObserver{}, Target: topo,
			Run: &resultsdir.Run{Started: time.Now().UTC(), Environment: sweep.Environment(cfg, []string{"test"})}}
		if of > 0 {
			r.Worker = &sweep.Worker{Index: i, Of: of, Wait: time.Minute}
		}
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = r.Execute(context.Background(), cells) }()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("worker %d: %v", i, err)
		}
	}
	return dirs
}

// Three workers against one Redis merge into a folder whose every histogram holds
// exactly the workers' values, and which report and compare read like any other.
func TestThreeWorkersMergeIntoAFolderReportReads(t *testing.T) {
	t.Parallel()
	testenv.RequireRedis(t)
	topo := testenv.Start(t, backend.Spec{Kind: topologies.Single})
	cfg := sweep.Config{Duration: sweep.Duration(time.Second), Warmup: sweep.Duration(200 * time.Millisecond), Seed: 1,
		RunID: fmt.Sprintf("m%d", time.Now().UnixNano()),
		Sweeps: []sweep.Sweep{{Strategies: []string{"single"}, Clients: []int{6}, Keys: []string{"1", sweep.PerClient}},
			{Strategies: []string{"single"}, Clients: []int{3}, Keys: []string{sweep.PerClient}, Load: "open", Rate: []float64{300}, Arrival: "constant"}}}
	workers := runShares(t, topo, cfg, 3)
	cfg.RunID += "-whole"
	whole := runShares(t, topo, cfg, 0)[0]

	merged := mergeWorkers(t, workers)
	got, err := resultsdir.ReadRun(merged)
	if err != nil {
		t.Fatal(err)
	}
	for ci, c := range got.Cells {
		for metric, rel := range c.Histograms {
			var sum int64
			for _, dir := range workers {
				w, err := resultsdir.ReadRun(dir)
				if err != nil {
					t.Fatal(err)
				}
				h, err := resultsdir.ReadHistogram(dir, w.Cells[ci].Histograms[metric])
				if err != nil {
					t.Fatal(err)
				}
				sum += h.TotalCount()
			}
			h, err := resultsdir.ReadHistogram(merged, rel)
			if err != nil {
				t.Fatal(err)
			}
			if h.TotalCount() != sum || c.Latency[metric].Count != sum {
				t.Errorf("%s %s: merged log %d values, summary %d; the workers' add up to %d", c.Name, metric, h.TotalCount(), c.Latency[metric].Count, sum)
			}
		}
		if len(c.Workers) != 3 || c.Granted == 0 {
			t.Errorf("%s: %d workers, %d granted", c.Name, len(c.Workers), c.Granted)
		}
		if c.Load.Mode == "open" && (c.Load.TargetRate != 300 || c.Workers[0].Rate != 100 || c.Load.AchievedRate <= 0) {
			t.Errorf("%s: target rate %v, worker 0's share %v, achieved %v; want 300, 100 and some", c.Name, c.Load.TargetRate, c.Workers[0].Rate, c.Load.AchievedRate)
		}
	}
	var stderr bytes.Buffer
	if code := run([]string{"report", merged}, nil, io.Discard, &stderr); code != 0 {
		t.Fatalf("report on the merged folder: exit %d: %s", code, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(merged, "report.md")); err != nil {
		t.Errorf("report wrote no report.md: %v", err)
	}
	adrOut := filepath.Join(t.TempDir(), "adr.md")
	if code := run([]string{"adr", "--workload", adrExample, "--results", merged, "--out", adrOut, "--date", "2026-12-01"}, nil, io.Discard, &stderr); code != 0 {
		t.Errorf("adr on the merged folder: exit %d: %s", code, stderr.String())
	}
	if code := run([]string{"compare", whole, merged}, nil, io.Discard, &stderr); code != 0 && code != 1 {
		t.Errorf("compare whole merged: exit %d: %s", code, stderr.String())
	}
	// No two workers start within a nanosecond: the warning reaches stderr and the notes.
	stderr.Reset()
	strict := filepath.Join(t.TempDir(), "strict")
	if code := run(append([]string{"merge", "--max-skew", "1ns", "--out", strict}, workers...), nil, io.Discard, &stderr); code != 0 {
		t.Fatalf("merge --max-skew 1ns: exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "warning: cell strategy=single/clients=6/keys=1") || !strings.Contains(stderr.String(), "actual starts disagree") {
		t.Errorf("merge --max-skew 1ns: stderr %q; want a warning naming the cell and the starts", stderr.String())
	}
	logRatios(t, whole, got)
}

// logRatios prints the merged 3-worker figures over the one-worker run's, per cell:
// the figures docs/workers.md quotes (go test -run TestThreeWorkersMerge -v).
func logRatios(t *testing.T, wholeDir string, merged *resultsdir.Run) {
	one, err := resultsdir.ReadRun(wholeDir)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range merged.Cells {
		o := one.Cells[i]
		short := strings.Join(strings.Split(m.Name, "/")[1:3], "/")
		t.Logf("%s: cycles/s 3 workers %.0f, 1 worker %.0f (ratio %.2f); acquire p99 %v vs %v (ratio %.2f)", short,
			m.CyclesPerSecond, o.CyclesPerSecond, m.CyclesPerSecond/o.CyclesPerSecond,
			m.Latency[resultsdir.MetricAcquire].P99, o.Latency[resultsdir.MetricAcquire].P99,
			float64(m.Latency[resultsdir.MetricAcquire].P99)/float64(o.Latency[resultsdir.MetricAcquire].P99))
	}
}
