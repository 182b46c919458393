package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/lockbench/lockbench/capacity"
	"github.com/lockbench/lockbench/capacity/live"
	"github.com/lockbench/lockbench/internal/flagrecord"
	"github.com/lockbench/lockbench/internal/interrupt"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/report"
	"github.com/lockbench/lockbench/report/digest"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/sweep"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/updates"
)

// capacityPlan is a validated capacity run: what to search, under which conditions.
type capacityPlan struct {
	cfg        capacity.Config
	slo        report.SLO
	params     capacity.Params
	conditions []live.Condition
	sweepCfg   sweep.Config
	runID      string // in every key's prefix; "" unless external or --run-id
}

// capacityCLI is the command line of `lockbench capacity`.
type capacityCLI struct {
	fs                *flag.FlagSet
	configFile, out   *string
	noReport          *bool
	deployment, runID string
}

func newCapacityCLI(stderr io.Writer) *capacityCLI {
	fs := flag.NewFlagSet("capacity", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := capacityCLI{fs: fs}
	c.configFile = fs.String("config", "", "YAML file with the fields below (flags override it)")
	c.out = fs.String("out", "", "results folder (default results/<timestamp>; must not exist or be empty)")
	c.noReport = fs.Bool("no-report", false, "do not write report.md and figures at the end")
	def := capacity.DefaultConfig()
	fs.String("strategies", strings.Join(def.Strategies, ","), "comma-separated strategies to search")
	fs.String("slo", def.SLO, "latency budget: PERCENTILE=DURATION (p50, p90, p99, p99.9), optionally attempt: to budget one attempt")
	fs.String("precision", def.Precision, "how close the highest kept and lowest broken rate must be: 5% or 0.05")
	fs.String("clients", "64", "comma-separated client counts (one search each)")
	fs.String("keys", "per-client", "comma-separated key counts: 1 .. per-client")
	fs.String("hold", def.Hold, "time held inside the lock")
	fs.String("ttl", def.TTL, "lock TTL")
	fs.String("arrival", def.Arrival, "constant or poisson")
	fs.String("start", "1000", "first offered rate per second")
	fs.String("max", "1000000", "highest offered rate per second ever tried")
	fs.String("warmup", def.Warmup, "discarded time before each probe's measured part")
	fs.String("min-duration", def.MinDuration, "shortest measured part of a probe (it is longer when the percentile needs more samples)")
	fs.String("seed", "1", "seed for arrivals and key prefixes")
	registerExternal(fs, &c.deployment, &c.runID)
	return &c
}

func runCapacity(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	cli := newCapacityCLI(stderr)
	fs, configFile, out, noReport := cli.fs, cli.configFile, cli.out, cli.noReport
	if err := refusePasswordFlags(args); err != nil {
		return err
	}
	if err := fs.Parse(args); err != nil {
		return usagef("%v", err)
	}
	if fs.NArg() > 0 {
		return usagef("unexpected arguments %q", fs.Args())
	}
	plan, err := resolveCapacity(fs, *configFile)
	if err != nil {
		return usageError{err.Error()}
	}
	plan.sweepCfg.Deployment = cli.deployment
	cells, _ := plan.sweepCfg.Cells() // checked by resolveCapacity
	if plan.runID, err = setupExternal(&plan.sweepCfg, cells, cli.runID); err != nil {
		return err
	}
	if err := preflightStrategies(plan.sweepCfg.Provider, plan.cfg.Strategies); err != nil {
		return err
	}
	dir, latest, err := resultsdir.Prepare(*out)
	if err != nil {
		return err
	}
	topologies.HandleSignals(false)
	locks.SilenceClientLogs()
	ctx, stop := interrupt.Notify()
	defer stop()
	started := time.Now()
	rec, run, err := plan.execute(ctx, dir, stdout)
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("%v (results so far: %s)", err, dir)
	}
	if latest != "" {
		resultsdir.PointLatest(latest, dir)
	}
	writeCapacityTable(stdout, rec, plan.slo)
	fmt.Fprintf(stdout, "\nwall time %s; results: %s\n", time.Since(started).Round(100*time.Millisecond), dir)
	if !run.Complete {
		fmt.Fprintf(stdout, "interrupted: the searches finished so far are in %s\n", dir)
		return interrupt.Of(ctx)
	}
	if !*noReport {
		if _, err := report.WriteResult(dir, report.Options{SLO: &plan.slo}); err != nil {
			return fmt.Errorf("report: %w", err)
		}
	}
	return nil
}

// resolveCapacity lays the flags over the config file over the defaults and checks
// every field, naming the first that is wrong, before anything is created.
func resolveCapacity(fs *flag.FlagSet, configFile string) (capacityPlan, error) {
	cfg := capacity.DefaultConfig()
	if configFile != "" {
		data, err := os.ReadFile(configFile)
		if err != nil {
			return capacityPlan{}, fmt.Errorf("config: %w", err)
		}
		if len(bytes.TrimSpace(data)) == 0 {
			return capacityPlan{}, fmt.Errorf("config %s: the file is empty", configFile)
		}
		file, err := capacity.ParseConfig(data)
		if err != nil {
			return capacityPlan{}, fmt.Errorf("config %s: %w", configFile, err)
		}
		cfg = capacity.Over(cfg, file)
	}
	var err error
	set := func(name string, apply func(string) error) {
		if err == nil && flagrecord.Given(fs, name) {
			if e := apply(fs.Lookup(name).Value.String()); e != nil {
				err = fmt.Errorf("--%s: %w", name, e)
			}
		}
	}
	rate := func(dst *float64) func(string) error {
		return func(v string) (e error) {
			if *dst, e = strconv.ParseFloat(v, 64); e != nil {
				return fmt.Errorf("%q is not a number", v)
			}
			return nil
		}
	}
	set("strategies", func(v string) (e error) { cfg.Strategies, e = splitList(v); return })
	set("slo", func(v string) error { cfg.SLO = v; return nil })
	set("precision", func(v string) error { cfg.Precision = v; return nil })
	set("clients", func(v string) (e error) { cfg.Clients, e = parseInts(v); return })
	set("keys", func(v string) (e error) { cfg.Keys, e = splitList(v); return })
	set("hold", func(v string) error { cfg.Hold = v; return nil })
	set("ttl", func(v string) error { cfg.TTL = v; return nil })
	set("arrival", func(v string) error { cfg.Arrival = v; return nil })
	set("start", rate(&cfg.Start))
	set("max", rate(&cfg.Max))
	set("warmup", func(v string) error { cfg.Warmup = v; return nil })
	set("min-duration", func(v string) error { cfg.MinDuration = v; return nil })
	set("seed", func(v string) (e error) { cfg.Seed, e = strconv.ParseUint(v, 10, 64); return })
	if err != nil {
		return capacityPlan{}, err
	}
	return checkCapacity(cfg)
}

// checkCapacity validates a resolved config into a plan.
func checkCapacity(cfg capacity.Config) (capacityPlan, error) {
	p := capacityPlan{cfg: cfg}
	var err error
	if p.slo, err = report.ParseSLO(cfg.SLO); err != nil {
		return p, fmt.Errorf("slo: %w", err)
	}
	precision, err := capacity.ParsePrecision(cfg.Precision)
	if err != nil {
		return p, err
	}
	if len(cfg.Strategies) == 0 {
		return p, fmt.Errorf("strategies: none given")
	}
	for _, st := range cfg.Strategies {
		if updates.IsLockFree(st) {
			return p, fmt.Errorf("strategies: %s cannot run open loop: it is lock-free, only the update workload (closed loop) runs it", st)
		}
		if _, e := locks.TopologyFor(st); e != nil {
			return p, fmt.Errorf("strategies: %w", e)
		}
	}
	hold, err := capacity.ParseDuration("hold", cfg.Hold)
	if err != nil {
		return p, err
	}
	ttl, err := capacity.ParseDuration("ttl", cfg.TTL)
	if err != nil {
		return p, err
	}
	warmup, err := capacity.ParseDuration("warmup", cfg.Warmup)
	if err != nil {
		return p, err
	}
	minDur, err := capacity.ParseDuration("min-duration", cfg.MinDuration)
	if err != nil {
		return p, err
	}
	if minDur <= 0 {
		return p, fmt.Errorf("min-duration %q: must be > 0", cfg.MinDuration)
	}
	for field, v := range map[string]float64{"start rate": cfg.Start, "max rate": cfg.Max} {
		if !(v > 0) { // 0 would mean "the default" to the search
			return p, fmt.Errorf("%s = %v: must be a finite number > 0", field, v)
		}
	}
	p.params = capacity.Params{
		Budget:    capacity.Budget{Metric: p.slo.Metric, Percentile: p.slo.Percentile, Limit: p.slo.Budget},
		Precision: precision, Start: cfg.Start, Max: cfg.Max, Warmup: warmup, MinDuration: minDur,
	}
	if err := p.params.Validate(); err != nil {
		return p, err
	}
	// The matrix checks strategies, clients, keys, hold, TTL and arrival as `run` does.
	p.sweepCfg = sweep.Config{
		Sweeps: []sweep.Sweep{{Strategies: cfg.Strategies, Clients: cfg.Clients, Keys: cfg.Keys, Hold: []sweep.Duration{sweep.Duration(hold)},
			TTL: []sweep.Duration{sweep.Duration(ttl)}, Load: "open", Rate: []float64{cfg.Start}, Arrival: cfg.Arrival}},
		Duration: sweep.Duration(minDur), Warmup: sweep.Duration(warmup), Seed: cfg.Seed,
	}
	cells, err := p.sweepCfg.Cells()
	if err != nil {
		return p, err
	}
	seen := map[live.Condition]bool{}
	for _, c := range cells {
		cond := live.Condition{Clients: c.Clients, Keys: c.Keys, Hold: c.Hold, TTL: c.TTL, Arrival: c.Arrival}
		if !seen[cond] {
			seen[cond] = true
			p.conditions = append(p.conditions, cond)
		}
	}
	return p, nil
}

// execute searches every strategy under every condition, one topology per strategy,
// recording each probe as a cell of dir and each search in capacity.json.
func (p capacityPlan) execute(ctx context.Context, dir string, stdout io.Writer) (capacity.Record, *resultsdir.Run, error) {
	need, _ := p.params.Budget.MinSamples()
	rec := capacity.Record{SLO: p.cfg.SLO, Metric: p.slo.Metric, Percentile: string(p.slo.Percentile),
		Budget: resultsdir.Duration(p.slo.Budget), Precision: p.params.Precision, MinSamples: need}
	run := &resultsdir.Run{Started: time.Now().UTC(), Environment: sweep.Environment(p.sweepCfg, os.Args)}
	run.Environment.RunID = p.runID
	cfg := p.sweepCfg
	cfg.RunID = p.runID
	runner := &sweep.Runner{Config: cfg, Out: dir, Run: run}
	if err := resultsdir.WriteRun(dir, run); err != nil {
		return rec, run, err
	}
	next := 0
	for _, st := range p.cfg.Strategies {
		if err := p.searchStrategy(ctx, runner, st, &next, &rec, dir, stdout); err != nil {
			run.Finished = time.Now().UTC()
			_ = resultsdir.WriteRun(dir, run)
			return rec, run, err
		}
	}
	run.Complete, run.Finished = ctx.Err() == nil, time.Now().UTC()
	return rec, run, resultsdir.WriteRun(dir, run)
}

func (p capacityPlan) searchStrategy(ctx context.Context, runner *sweep.Runner, st string, next *int, rec *capacity.Record, dir string, stdout io.Writer) error {
	session, err := runner.Session(ctx, st)
	if err != nil {
		return err
	}
	defer session.Close()
	for _, cond := range p.conditions {
		began := time.Now()
		prober := &live.Prober{Session: session, Strategy: st, Condition: cond, Budget: p.params.Budget, Next: next}
		res, err := capacity.Search(ctx, prober, p.params)
		if err != nil {
			return err
		}
		s := capacity.NewSearchRecord(st, res, prober.Servers())
		s.Clients, s.Keys, s.Hold, s.TTL, s.Arrival = cond.Clients, cond.Keys, resultsdir.Duration(cond.Hold), resultsdir.Duration(cond.TTL), cond.Arrival
		s.Elapsed = resultsdir.Duration(time.Since(began))
		rec.Searches = append(rec.Searches, s)
		if err := capacity.WriteRecord(dir, *rec); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: %s (%d probes, %s)\n", st, capacityAnswer(s), len(s.Probes), time.Since(began).Round(100*time.Millisecond))
	}
	return nil
}

// capacityAnswer says a search's answer in a few words.
func capacityAnswer(s capacity.SearchRecord) string {
	switch {
	case s.GeneratorBound:
		return fmt.Sprintf("generator-bound at %s/s (kept %s/s): the generator could not deliver more; no server capacity is claimed", digest.FormatRate(s.Broke), digest.FormatRate(s.Kept))
	case s.Kept == 0:
		return fmt.Sprintf("no rate kept the budget (lowest tried %s/s: %s)", digest.FormatRate(s.Broke), s.BrokeWhy)
	case s.Broke == 0:
		return fmt.Sprintf("at least %s/s: the budget held up to the highest rate allowed", digest.FormatRate(s.Kept))
	case !s.Converged:
		return fmt.Sprintf("%s/s, %s/s broke it (%s); not within the precision: out of probes", digest.FormatRate(s.Kept), digest.FormatRate(s.Broke), s.BrokeWhy)
	}
	return fmt.Sprintf("%s/s within %.1f%% (%s/s broke it: %s)", digest.FormatRate(s.Kept), 100*s.Precision, digest.FormatRate(s.Broke), s.BrokeWhy)
}

// writeCapacityTable prints one row per search.
func writeCapacityTable(w io.Writer, rec capacity.Record, slo report.SLO) {
	fmt.Fprintf(w, "\ncapacity: highest offered rate that kept %s on two probes (a rate broke on two; a third settles a split)\n\n", slo)
	fmt.Fprintf(w, "%-10s %-28s %-46s %-44s %s\n", "strategy", "condition", "highest rate within budget", "saturated at the top probes", "servers")
	for _, s := range rec.Searches {
		cond := fmt.Sprintf("%d clients, %d keys, %s", s.Clients, s.Keys, s.Arrival)
		fmt.Fprintf(w, "%-10s %-28s %-46s %-44s %d\n", s.Strategy, cond, report.CapacityCell(s), s.Saturated, s.Servers)
	}
}
