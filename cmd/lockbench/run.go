package main

import (
	"fmt"
	"io"

	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/internal/interrupt"
	"github.com/lockbench/lockbench/outputs"
	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/report"
	"github.com/lockbench/lockbench/sweep"
	"github.com/lockbench/lockbench/sweep/runs"
	"github.com/lockbench/lockbench/topologies"
)

func init() {
	commands["run"] = command{"sweep a matrix of strategies and conditions into a results folder", runRun}
}

func runRun(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := commandFlags("run", stderr)
	var f runFlags
	f.register(fs)
	if err := parseMeasureFlags(fs, args); err != nil {
		return err
	}
	var recorded *sweep.Config // the matrix a resume carries on, unless flags rebuild it
	if f.resume != "" {
		r, err := runs.Recorded(fs, f.resume)
		if err != nil {
			return err
		}
		recorded = r
	}
	cfg, err := f.resolveOn(fs, recorded)
	if err != nil {
		return usageError{err.Error()}
	}
	cells, err := cfg.Cells()
	if err != nil {
		return usageError{err.Error()}
	}
	givenRunID := f.runID
	if givenRunID == "" {
		givenRunID = cfg.RunID // run_id: in the config file
	}
	if cfg.RunID, err = runs.SetupExternal(&cfg, cells, givenRunID); err != nil {
		return err
	}
	// A worker's run id must be given: a random one per host would share nothing.
	worker, err := f.workers.resolve(fs, &cfg, givenRunID)
	if err != nil {
		return err
	}
	if err := checkProvider(cfg.Provider, f.redisImage); err != nil {
		return err
	}
	if f.progress != "auto" && f.progress != "bar" && f.progress != "plain" {
		return usagef("progress %q: want auto, bar or plain", f.progress)
	}
	if err := preflightCells(cfg.Provider, cells); err != nil {
		return err
	}
	plan := runs.Plan{Config: cfg, Cells: cells, Worker: worker, Out: f.out, Resume: f.resume,
		Flags: runs.FlagsToRecord(fs), Progress: f.progress, CommandLine: append([]string{"lockbench", "run"}, args...)}
	r, err := runs.Start(stdout, plan)
	if err != nil || r == nil {
		return err
	}

	// This command closes its own topologies when interrupted, after saving results.
	topologies.HandleSignals(false)
	redisconn.SilenceClientLogs()
	ctx, stop := interrupt.Notify()
	defer stop()
	if err := r.Execute(ctx, stdout); err != nil {
		return err
	}
	if !f.noReport {
		if err := outputs.Write(r.Dir(), report.Options{Stores: linked.Catalog()}); err != nil {
			return fmt.Errorf("report: %w", err)
		}
	}
	fmt.Fprintf(stdout, "\nresults: %s\n", r.Dir())
	return nil
}
