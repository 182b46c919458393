package sweep_test

import (
	"context"
	"fmt"
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

func TestSharesSplitClientsEvenlyAndContiguously(t *testing.T) {
	for _, c := range []struct{ clients, of int }{{7, 3}, {2, 3}, {64, 3}, {1, 1}, {9, 9}} {
		next := 0
		for i := range c.of {
			first, n := sweep.Worker{Index: i, Of: c.of}.Share(c.clients)
			if first != next {
				t.Errorf("%d clients over %d: worker %d starts at %d, want %d", c.clients, c.of, i, first, next)
			}
			if want := c.clients / c.of; n != want && n != want+1 || (n == want+1) != (i < c.clients%c.of) {
				t.Errorf("%d clients over %d: worker %d has %d", c.clients, c.of, i, n)
			}
			next = first + n
		}
		if next != c.clients {
			t.Errorf("%d clients over %d: shares cover %d", c.clients, c.of, next)
		}
	}
}

// runWorkers runs workers idx of `of` on cfg as goroutines against topo and returns
// each one's folder, run and error.
func runWorkers(t *testing.T, topo topologies.Topology, cfg sweep.Config, of int, wait time.Duration, idx ...int) ([]string, []*resultsdir.Run, []error) {
	t.Helper()
	cells, err := cfg.Cells()
	if err != nil {
		t.Fatal(err)
	}
	dirs, runs, errs := make([]string, len(idx)), make([]*resultsdir.Run, len(idx)), make([]error, len(idx))
	var wg sync.WaitGroup
	for k, i := range idx {
		dirs[k] = t.TempDir()
		runs[k] = &resultsdir.Run{Environment: sweep.Environment(cfg, []string{"test"})}
		r := &sweep.Runner{Config: cfg, Out: dirs[k], Run: runs[k], Observer: &quietObserver{}, Target: topo,
			Worker: &sweep.Worker{Index: i, Of: of, Wait: wait}}
		wg.Add(1)
		go func() { defer wg.Done(); errs[k] = r.Execute(context.Background(), cells) }()
	}
	wg.Wait()
	return dirs, runs, errs
}

func startSingle(t *testing.T) topologies.Topology {
	t.Helper()
	testenv.RequireRedis(t)
	return testenv.Start(t, backend.Spec{Kind: topologies.Single})
}

// Three workers of a keys=1 cell fight for one key: as one holder at a time holds it
// for at least hold, their grants together fit in the window they ran in, and each
// worker, one client alone in its share, is refused only because another worker holds
// its key. Per-client keys are each one client's: no worker is ever refused. Refusals,
// not busy time, tell the two apart: summed holds of per-client keys against the wall
// clock window fell short of it on a loaded machine (1.9 s in 2.16 s).
func TestThreeWorkersContendOnOneKeyAcrossWorkers(t *testing.T) {
	topo := startSingle(t)
	hold := 100 * time.Millisecond
	cfg := sweep.Config{Duration: sweep.Duration(2 * time.Second), RunID: fmt.Sprintf("t%d", time.Now().UnixNano()),
		Sweeps: []sweep.Sweep{
			{Strategies: []string{"single"}, Clients: []int{3}, Keys: []string{"1", sweep.PerClient}, Hold: []sweep.Duration{sweep.Duration(hold)}},
			{Strategies: []string{"single"}, Clients: []int{2}, Keys: []string{"1"}}, // worker 2 has no share
		}}
	_, runs, errs := runWorkers(t, topo, cfg, 3, time.Minute, 0, 1, 2)
	for i, err := range errs {
		if err != nil {
			t.Fatalf("worker %d: %v", i, err)
		}
	}
	byCell := map[string][]resultsdir.Cell{}
	for i, run := range runs {
		if !run.Complete || run.Worker == nil || run.Worker.Index != i || run.Worker.RunID != cfg.RunID {
			t.Errorf("worker %d: complete=%v tag %+v", i, run.Complete, run.Worker)
		}
		for _, c := range run.Cells {
			byCell[c.Name] = append(byCell[c.Name], c)
		}
	}
	if len(runs[2].Skipped) != 1 || !strings.Contains(runs[2].Skipped[0].Name, "clients=2/") {
		t.Errorf("worker 2 skipped %+v; want the clients=2 cell", runs[2].Skipped)
	}
	for name, shares := range byCell {
		want := 3
		if strings.Contains(name, "clients=2/") {
			want = 2
		}
		if len(shares) != want {
			t.Fatalf("%s: measured by %d workers, want %d", name, len(shares), want)
		}
		var granted int64
		var from, to time.Time
		for i, c := range shares {
			if c.Worker == nil || c.Worker.Clients != 1 || !c.Worker.ScheduledStart.Equal(shares[0].Worker.ScheduledStart) {
				t.Fatalf("%s share %d: tag %+v; want 1 client and the start the others agreed", name, i, c.Worker)
			}
			granted += c.Granted
			end := c.Worker.ActualStart.Add(c.Elapsed.D())
			if from.IsZero() || c.Worker.ActualStart.Before(from) {
				from = c.Worker.ActualStart
			}
			if end.After(to) {
				to = end
			}
		}
		busy, window := time.Duration(granted)*hold, to.Sub(from)
		switch {
		case strings.Contains(name, "keys=1/hold=100ms"):
			if busy > window {
				t.Errorf("%s: %d grants of %v hold %v in a window of %v: two workers held the one key at once", name, granted, hold, busy, window)
			}
			for _, c := range shares {
				if c.Refused == 0 {
					t.Errorf("%s: worker %d was never refused on the shared key", name, c.Worker.Index)
				}
			}
		case strings.Contains(name, "keys=3/"):
			for _, c := range shares {
				// Only a failed release (an error) leaves a client's own key held to its TTL.
				if c.Refused != 0 && len(c.Errors) == 0 {
					t.Errorf("%s: worker %d was refused %d times on a key no other client holds", name, c.Worker.Index, c.Refused)
				}
			}
		}
	}
}

// The missing worker makes the timeout, not the wait's length: at 500 ms, under load,
// one of the two workers that came arrived too late to be counted.
func TestRendezvousTimesOutNamingTheCellAndTheArrivals(t *testing.T) {
	t.Parallel()
	topo := startSingle(t)
	cfg := sweep.Config{Duration: sweep.Duration(200 * time.Millisecond), RunID: fmt.Sprintf("t%d", time.Now().UnixNano()),
		Sweeps: []sweep.Sweep{{Strategies: []string{"single"}, Clients: []int{3}, Keys: []string{"1"}}}}
	_, runs, errs := runWorkers(t, topo, cfg, 3, 10*time.Second, 0, 1) // worker 2 never comes
	for i, err := range errs {
		if err == nil || !strings.Contains(err.Error(), "2 of 3 workers arrived") || !strings.Contains(err.Error(), "strategy=single/clients=3/keys=1") {
			t.Errorf("worker %d: error %v; want a timeout naming the cell and 2 of 3 arrivals", i, err)
		}
		if runs[i].Complete || len(runs[i].Cells) != 0 {
			t.Errorf("worker %d: complete=%v with %d cells after a failed rendezvous", i, runs[i].Complete, len(runs[i].Cells))
		}
	}
}

func TestAStartAtThatHasPassedFailsTheCell(t *testing.T) {
	topo := startSingle(t)
	cfg := sweep.Config{Duration: sweep.Duration(200 * time.Millisecond), RunID: "past",
		Sweeps: []sweep.Sweep{{Strategies: []string{"single"}, Clients: []int{1}, Keys: []string{"1"}}}}
	cells, _ := cfg.Cells()
	r := &sweep.Runner{Config: cfg, Out: t.TempDir(), Run: &resultsdir.Run{}, Observer: &quietObserver{}, Target: topo,
		Worker: &sweep.Worker{Index: 0, Of: 1, StartAt: time.Now().Add(-time.Minute)}}
	if err := r.Execute(context.Background(), cells); err == nil || !strings.Contains(err.Error(), "--start-at") {
		t.Errorf("start-at a minute ago: error %v; want one naming --start-at", err)
	}
}

func TestStartAtSchedulesEveryCellInItsOwnSlot(t *testing.T) {
	topo := startSingle(t)
	cfg := sweep.Config{Duration: sweep.Duration(200 * time.Millisecond), Warmup: sweep.Duration(100 * time.Millisecond), RunID: "slots",
		Sweeps: []sweep.Sweep{{Strategies: []string{"single"}, Clients: []int{1, 2}, Keys: []string{"1"}}}}
	cells, _ := cfg.Cells()
	// Margins of seconds: on a loaded shared machine a cell's set-up and tear-down took
	// longer than a 300 ms gap (a CI run failed on "scheduled start passed 89ms ago").
	at := time.Now().Add(3 * time.Second).Truncate(time.Millisecond)
	run := &resultsdir.Run{}
	gap := 3 * time.Second
	r := &sweep.Runner{Config: cfg, Out: t.TempDir(), Run: run, Observer: &quietObserver{}, Target: topo,
		Worker: &sweep.Worker{Index: 0, Of: 1, StartAt: at, CellGap: gap}}
	if err := r.Execute(context.Background(), cells); err != nil {
		t.Fatal(err)
	}
	for k, c := range run.Cells {
		want := at.Add(time.Duration(k)*(100*time.Millisecond+200*time.Millisecond+gap) + 100*time.Millisecond)
		if !c.Worker.ScheduledStart.Equal(want) {
			t.Errorf("cell %d: scheduled %v, want %v (start-at + %d slots + the warm-up)", k, c.Worker.ScheduledStart, want, k)
		}
		if c.Worker.ActualStart.Before(want) {
			t.Errorf("cell %d: started %v, before its schedule %v", k, c.Worker.ActualStart, want)
		}
	}
}
