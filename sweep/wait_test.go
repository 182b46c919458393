package sweep_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/sweep"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// A run waits naturally by default: it names each strategy's way of waiting and each
// cell's mode, times a library's own wait as the acquire, and keeps one attempt's cost
// beside it (the probe's grants for a library, every attempt where lockbench waits).
func TestNaturalRunRecordsHowEachStrategyWaited(t *testing.T) {
	testenv.RequireRedis(t)
	cfg := sweep.Config{
		Duration: sweep.Duration(2 * time.Second), Seed: 5, // long enough that a loaded machine still grants
		Sweeps: []sweep.Sweep{{Strategies: []string{"single", "rueidislock"}, Clients: []int{4}, Keys: []string{"1"}}},
	}
	cells, err := cfg.Cells()
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	run := &resultsdir.Run{Environment: sweep.Environment(cfg, []string{"test"})}
	if err := (&sweep.Runner{Config: cfg, Out: out, Run: run, Observer: &quietObserver{}}).Execute(context.Background(), cells); err != nil {
		t.Fatal(err)
	}
	back, err := resultsdir.ReadRun(out)
	if err != nil {
		t.Fatal(err)
	}
	waiting := back.Environment.Waiting
	if !strings.HasPrefix(waiting["single"], "lockbench backoff") || !strings.HasPrefix(waiting["rueidislock"], "rueidislock:") {
		t.Errorf("environment.waiting = %q: want lockbench's backoff for single, the library's words for rueidislock", waiting)
	}
	for _, c := range back.Cells {
		if c.Load.Wait != "natural" || c.Granted == 0 {
			t.Errorf("%s: load.wait %q, granted %d", c.Name, c.Load.Wait, c.Granted)
		}
		attempts, waits := c.Latency[resultsdir.MetricAttempt].Count, c.Latency[resultsdir.MetricAcquire].Count
		if waits == 0 || attempts == 0 {
			t.Errorf("%s: %d attempts timed, %d waits (errors %v): want both", c.Name, attempts, waits, c.Errors)
		}
		// The library's attempts are the probe's grants alone, none of the load's calls;
		// lockbench's own are every attempt of the load, at least one per grant.
		if library := c.Strategy == "rueidislock"; library && attempts > 200 || !library && attempts < c.Granted {
			t.Errorf("%s: %d attempts timed for %d grants", c.Name, attempts, c.Granted)
		}
		// Four clients on one key: the loop's fairness is recorded, whatever the split.
		if f := c.Fairness; f == nil || f.Clients != 4 || f.Jain < 0.25 || f.Jain > 1 {
			t.Errorf("%s: fairness %+v, want 4 clients and Jain's index within [1/4, 1]", c.Name, f)
		}
	}
}
