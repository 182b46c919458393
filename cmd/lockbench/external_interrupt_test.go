package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/sweep"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/external"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// cancelObserver ends the run a while into its first cell, as Ctrl-C does.
type cancelObserver struct {
	cancel context.CancelFunc
	after  time.Duration
}

func (o cancelObserver) Started(int)                   {}
func (o cancelObserver) CellDone(int, resultsdir.Cell) {}
func (o cancelObserver) CellStarted(int, sweep.Cell)   { time.AfterFunc(o.after, o.cancel) }

// TestExternalInterruptedRunDeletesItsKeys interrupts a run mid-cell: the run's prefix is
// deleted all the same, and a key of someone else's on the same server is kept.
func TestExternalInterruptedRunDeletesItsKeys(t *testing.T) {
	t.Parallel()
	topo := testenv.Start(t, backend.Spec{Kind: topologies.Single})
	addr := topo.Masters()[0].Addr()
	dir := t.TempDir()
	path := filepath.Join(dir, "d.yaml")
	if err := os.WriteFile(path, []byte(fmt.Sprintf("single:\n  master: %q\n", addr)), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := external.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	runID := external.NewRunID()
	externalTurn.Lock() // this run holds the process's external deployment to the end
	t.Cleanup(externalTurn.Unlock)
	external.Use(d, runID)
	admin := adminClient(t, addr)
	ctx := context.Background()
	planted, theirs := external.KeyPrefix(runID)+"planted", "someone-else:key"
	for _, k := range []string{planted, theirs} {
		if err := admin.Set(ctx, k, "1", 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	cfg := sweep.Config{Provider: external.Name, Duration: sweep.Duration(time.Minute), Deployment: path,
		Sweeps: []sweep.Sweep{{Strategies: []string{"single"}, Clients: []int{4}, Keys: []string{sweep.PerClient}, Hold: []sweep.Duration{sweep.Duration(20 * time.Millisecond)}}}}
	cells, err := cfg.Cells()
	if err != nil {
		t.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	env := sweep.Environment(cfg, nil)
	env.RunID = runID
	cfg.RunID = runID
	r := &sweep.Runner{Config: cfg, Out: out, Run: &resultsdir.Run{Environment: env},
		Observer: cancelObserver{cancel: cancel, after: 500 * time.Millisecond}}
	if err := r.Execute(runCtx, cells); err != nil {
		t.Fatal(err)
	}
	if r.Run.Complete {
		t.Fatal("the run completed: it was not interrupted, so this proves nothing")
	}
	if n, _ := admin.Exists(ctx, planted).Result(); n != 0 {
		t.Errorf("%s survived the interrupted run", planted)
	}
	if keys := allKeys(t, addr); len(keys) != 1 || keys[0] != theirs {
		t.Errorf("keys after the run = %q, want only %s (someone else's)", keys, theirs)
	}
}
