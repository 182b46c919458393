package main

import (
	"bytes"
	"flag"
	"fmt"
	"github.com/lockbench/lockbench/internal/interrupt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/report"
	"github.com/lockbench/lockbench/resources/pgaccount"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/sweep"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/updates"
)

func init() {
	commands["run"] = command{"sweep a matrix of strategies and conditions into a results folder", runRun}
}

// runFlags are the command line of `lockbench run`; sweep-axis flags override the
// same axis in every sweep of the config.
type runFlags struct {
	config, out, progress              string
	quick, noReport                    bool
	strategies, clients, keys, hold    string
	ttl, network, load, rate, arrival  string
	duration, warmup, retryDelay, seed string
	provider, workload, guards         string
	intervals, repeat                  string
	resume                             string
	preset                             string
	redisImage                         string
	deployment, runID                  string
	workers                            workerFlags
}

func (f *runFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.config, "config", "", "YAML config file (flags override it)")
	fs.BoolVar(&f.quick, "quick", false, "the small default matrix (about 2-3 minutes on 2 cores)")
	fs.StringVar(&f.preset, "preset", "", "a scaling sweep instead of the default matrix: "+presetNames())
	fs.StringVar(&f.out, "out", "", "results folder (default results/<timestamp>; must not exist or be empty)")
	fs.BoolVar(&f.noReport, "no-report", false, "do not write report.md and figures at the end")
	fs.StringVar(&f.progress, "progress", "auto", "auto, bar or plain")
	fs.StringVar(&f.strategies, "strategies", "", "comma-separated: "+strings.Join(locks.Strategies(), ", ")+"; with --workload update also the lock-free "+strings.Join(updates.LockFree(), ", "))
	fs.StringVar(&f.clients, "clients", "", "comma-separated client counts, e.g. 1,8,64,256")
	fs.StringVar(&f.keys, "keys", "", "comma-separated key counts: 1 (all fight for one key) .. per-client")
	fs.StringVar(&f.hold, "hold", "", "comma-separated time held inside the lock, e.g. 0,1ms,10ms")
	fs.StringVar(&f.ttl, "ttl", "", "comma-separated lock TTLs, e.g. 10s")
	fs.StringVar(&f.network, "network", "", "comma-separated profiles: none, uniform:5ms[~1ms], one-slow:20ms[@node]")
	fs.StringVar(&f.load, "load", "", "closed (acquire, hold, release, repeat) or open (fixed arrival rate)")
	fs.StringVar(&f.rate, "rate", "", "open load: comma-separated arrival rates per second")
	fs.StringVar(&f.arrival, "arrival", "", "open load: constant or poisson")
	fs.StringVar(&f.duration, "duration", "", "measured time per cell, e.g. 5s")
	fs.StringVar(&f.warmup, "warmup", "", "discarded time per cell before measuring, e.g. 1s")
	fs.StringVar(&f.retryDelay, "retry-delay", "", "pause after a refused attempt (default 0: retry at once)")
	fs.StringVar(&f.seed, "seed", "", "seed for everything random")
	fs.StringVar(&f.workload, "workload", "lock", "lock (acquire, hold, release) or update (one correct update of an account row: lock + guarded write, or lock-free)")
	fs.StringVar(&f.guards, "guards", "", "update workload: comma-separated write guards for lock strategies: "+strings.Join(pgaccount.ModeNames(), ", ")+" (default unfenced, and fenced where the strategy has a fence)")
	fs.StringVar(&f.intervals, "intervals", "", fmt.Sprintf("cut each cell's measured part into K intervals, each summarized in results.json: the within-run samples compare tests (default %d, fewer when --duration holds fewer of %v)", sweep.DefaultIntervals, sweep.MinInterval))
	fs.StringVar(&f.repeat, "repeat", "", "measure the whole matrix N times, pass after pass (A B A B, not A A B B); compare and report use the repeats as samples")
	fs.StringVar(&f.resume, "resume", "", "carry on the interrupted run in this folder instead of --out: alone, the command it recorded measures the cells the folder lacks; flags given beside it must agree")
	fs.StringVar(&f.provider, "provider", "", "how servers run: "+strings.Join(topologies.ProviderNames(), ", ")+" (default: per topology kind; auto: processes when installed, else containers, else embedded)")
	registerRedisImage(fs, &f.redisImage)
	registerExternal(fs, &f.deployment, &f.runID)
	f.workers.register(fs)
}

func runRun(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f runFlags
	f.register(fs)
	if err := refusePasswordFlags(args); err != nil {
		return err
	}
	if err := fs.Parse(args); err != nil {
		return usagef("%v", err)
	}
	if fs.NArg() > 0 {
		return usagef("unexpected arguments %q", fs.Args())
	}
	var recorded *sweep.Config // the matrix a resume carries on, unless flags rebuild it
	if f.resume != "" {
		r, err := recordedRun(fs, f.resume)
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
	runID, err := setupExternal(&cfg, cells, givenRunID)
	if err != nil {
		return err
	}
	cfg.RunID = runID
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
	env := sweep.Environment(cfg, os.Args)
	env.RunID = runID
	var out, latest string
	var run *resultsdir.Run
	if f.resume != "" {
		if f.out != "" {
			return usagef("--resume %s takes the place of --out: give one of them", f.resume)
		}
		if run, err = resumeRun(stdout, f.resume, cfg, env, len(cells)); err != nil || run == nil {
			return err
		}
		if runID != "" {
			run.Environment.RunID = runID // the id of the keys this pass writes
		}
		out = f.resume
	} else {
		if out, latest, err = resultsdir.Prepare(f.out); err != nil {
			return err
		}
		if err := sweep.SaveConfig(out, cfg); err != nil {
			return err
		}
		if err := resultsdir.WriteFlags(out, recordRunFlags(fs)); err != nil {
			return err
		}
		run = &resultsdir.Run{Started: time.Now().UTC(), Environment: env}
	}

	// This command closes its own topologies when interrupted, after saving results.
	topologies.HandleSignals(false)
	locks.SilenceClientLogs()
	ctx, stop := interrupt.Notify()
	defer stop()

	runner := &sweep.Runner{Config: cfg, Out: out, Run: run, Observer: newObserver(stdout, f.progress, cfg), Worker: worker}
	if err := runner.Execute(ctx, cells); err != nil {
		return fmt.Errorf("%v (results so far: %s)", err, out)
	}
	if latest != "" {
		resultsdir.PointLatest(latest, out)
	}
	writeSummary(stdout, run)
	if !run.Complete {
		fmt.Fprintf(stdout, "\ninterrupted after %d of %d cells; finished cells are in %s (carry on: lockbench run --resume %s)\n", len(run.Cells), len(cells), out, out)
		return interrupt.Of(ctx)
	}
	if !f.noReport {
		if err := report.Write(out, report.Options{}); err != nil {
			return fmt.Errorf("report: %w", err)
		}
	}
	fmt.Fprintf(stdout, "\nresults: %s\n", out)
	return nil
}

// resolve builds the config: the quick or default matrix, or the config file, then
// the flags on top.
func (f *runFlags) resolve(fs *flag.FlagSet) (sweep.Config, error) { return f.resolveOn(fs, nil) }

// resolveOn is resolve with the flags on top of base instead, when base is not nil: the
// matrix a resumed run recorded.
func (f *runFlags) resolveOn(fs *flag.FlagSet, base *sweep.Config) (sweep.Config, error) {
	if f.workload != sweep.WorkloadLock && f.workload != sweep.WorkloadUpdate {
		return sweep.Config{}, fmt.Errorf("--workload %q: want lock or update", f.workload)
	}
	if base != nil {
		return f.override(fs, *base)
	}
	cfg, err := f.matrix()
	if err != nil {
		return cfg, err
	}
	return f.override(fs, cfg)
}

// matrix is the quick, preset, update or default matrix, with the config file merged in.
func (f *runFlags) matrix() (sweep.Config, error) {
	cfg := sweep.DefaultConfig()
	switch {
	case f.workload == sweep.WorkloadUpdate:
		cfg = sweep.UpdateConfig(f.quick)
	case f.quick:
		cfg = sweep.QuickConfig()
	case f.preset != "":
		preset, ok := sweep.ScalingPresets()[f.preset]
		if !ok {
			return cfg, fmt.Errorf("--preset %q: want one of %s", f.preset, presetNames())
		}
		cfg = preset
	}
	if f.config != "" {
		data, err := os.ReadFile(f.config)
		if err != nil {
			return cfg, fmt.Errorf("config: %w", err)
		}
		if len(bytes.TrimSpace(data)) == 0 {
			return cfg, fmt.Errorf("config %s: the file is empty (it would silently run the default matrix)", f.config)
		}
		fromFile, err := sweep.ParseYAML(data)
		if err != nil {
			return cfg, fmt.Errorf("config %s: %w", f.config, err)
		}
		if fromFile.Deployment != "" && !filepath.IsAbs(fromFile.Deployment) {
			fromFile.Deployment = filepath.Join(filepath.Dir(f.config), fromFile.Deployment)
		}
		cfg = sweep.MergeFile(cfg, fromFile)
	}
	return cfg, nil
}

// override sets the axes and settings the flags give, on every sweep of cfg.
func (f *runFlags) override(fs *flag.FlagSet, cfg sweep.Config) (sweep.Config, error) {
	var err error
	set := func(name string, apply func(string) error) {
		if err == nil && flagSet(fs, name) {
			if e := apply(fs.Lookup(name).Value.String()); e != nil {
				err = fmt.Errorf("--%s: %w", name, e)
			}
		}
	}
	eachSweep := func(apply func(*sweep.Sweep, string) error) func(string) error {
		return func(v string) error {
			for i := range cfg.Sweeps {
				if e := apply(&cfg.Sweeps[i], v); e != nil {
					return e
				}
			}
			return nil
		}
	}
	set("workload", eachSweep(func(s *sweep.Sweep, v string) error { s.Workload = v; return nil }))
	set("guards", eachSweep(func(s *sweep.Sweep, v string) (e error) { s.Guards, e = splitList(v); return }))
	set("strategies", eachSweep(func(s *sweep.Sweep, v string) (e error) { s.Strategies, e = splitList(v); return }))
	set("clients", eachSweep(func(s *sweep.Sweep, v string) (e error) { s.Clients, e = parseInts(v); return }))
	set("keys", eachSweep(func(s *sweep.Sweep, v string) (e error) { s.Keys, e = splitList(v); return }))
	set("hold", eachSweep(func(s *sweep.Sweep, v string) (e error) { s.Hold, e = parseDurations(v); return }))
	set("ttl", eachSweep(func(s *sweep.Sweep, v string) (e error) { s.TTL, e = parseDurations(v); return }))
	set("network", eachSweep(func(s *sweep.Sweep, v string) (e error) { s.Network, e = splitList(v); return }))
	set("load", eachSweep(func(s *sweep.Sweep, v string) error { s.Load = v; return nil }))
	set("rate", eachSweep(func(s *sweep.Sweep, v string) (e error) { s.Rate, e = parseFloats(v); return }))
	set("arrival", eachSweep(func(s *sweep.Sweep, v string) error { s.Arrival = v; return nil }))
	set("duration", func(v string) (e error) { cfg.Duration, e = parseDuration(v); return })
	set("warmup", func(v string) (e error) { cfg.Warmup, e = parseDuration(v); return })
	set("retry-delay", func(v string) (e error) { cfg.RetryDelay, e = parseDuration(v); return })
	set("seed", func(v string) (e error) { cfg.Seed, e = strconv.ParseUint(v, 10, 64); return })
	set("intervals", func(v string) (e error) { cfg.Intervals, e = parseExplicitCount("intervals", v); return })
	set("repeat", func(v string) (e error) { cfg.Repeat, e = parseExplicitCount("repeat", v); return })
	set("deployment", func(v string) error { cfg.Deployment = v; return nil })
	set("provider", func(v string) error {
		if v == "external" {
			cfg.Provider = v // its deployment is read once the cells are known
			return nil
		}
		if _, e := topologies.ProviderNamed(v); e != nil {
			return e
		}
		cfg.Provider = v
		return nil
	})
	return cfg, err
}

func flagSet(fs *flag.FlagSet, name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

// splitList reads a comma-separated list; an empty entry or one given twice is an
// error (a typo, or a cell measured twice under one name).
func splitList(v string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, s := range strings.Split(v, ",") {
		s = strings.TrimSpace(s)
		switch {
		case s == "":
			return nil, fmt.Errorf("%q has an empty entry", v)
		case seen[s]:
			return nil, fmt.Errorf("%q names %s twice", v, s)
		}
		seen[s] = true
		out = append(out, s)
	}
	return out, nil
}

func parseInts(v string) ([]int, error) {
	parts, err := splitList(v)
	if err != nil {
		return nil, err
	}
	var out []int
	for _, s := range parts {
		n, err := strconv.Atoi(s)
		if err != nil {
			return nil, fmt.Errorf("%q is not a whole number", s)
		}
		out = append(out, n)
	}
	return out, nil
}

// parseCount reads a whole number; Config.Cells judges its range, naming the field.
func parseCount(v string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 0, fmt.Errorf("%q is not a whole number", v)
	}
	return n, nil
}

func parseFloats(v string) ([]float64, error) {
	parts, err := splitList(v)
	if err != nil {
		return nil, err
	}
	var out []float64
	for _, s := range parts {
		n, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", s)
		}
		out = append(out, n)
	}
	return out, nil
}

func parseDuration(v string) (sweep.Duration, error) {
	if v == "0" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration like 10ms", v)
	}
	return sweep.Duration(d), nil
}

func parseDurations(v string) ([]sweep.Duration, error) {
	parts, err := splitList(v)
	if err != nil {
		return nil, err
	}
	var out []sweep.Duration
	for _, s := range parts {
		d, err := parseDuration(s)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}
