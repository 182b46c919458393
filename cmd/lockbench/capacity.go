package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/capacity"
	"github.com/lockbench/lockbench/capacity/campaign"
	"github.com/lockbench/lockbench/internal/flagrecord"
	"github.com/lockbench/lockbench/internal/interrupt"
	"github.com/lockbench/lockbench/outputs"
	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/report"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/sweep/runs"
	"github.com/lockbench/lockbench/topologies"
)

func runCapacity(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	cli := newCapacityCLI(stderr)
	fs, configFile, out, noReport := cli.fs, cli.configFile, cli.out, cli.noReport
	if err := parseMeasureFlags(fs, args); err != nil {
		return err
	}
	plan, slo, err := resolveCapacity(fs, *configFile)
	if err != nil {
		return usageError{err.Error()}
	}
	plan.Sweep.Deployment = cli.deployment
	cells, _ := plan.Sweep.Cells() // checked by resolveCapacity
	if plan.RunID, err = runs.SetupExternal(&plan.Sweep, cells, cli.runID); err != nil {
		return err
	}
	if err := preflightStrategies(plan.Sweep.Provider, plan.Config.Strategies); err != nil {
		return err
	}
	dir, latest, err := resultsdir.Prepare(*out)
	if err != nil {
		return err
	}
	topologies.HandleSignals(false)
	redisconn.SilenceClientLogs()
	ctx, stop := interrupt.Notify()
	defer stop()
	started := time.Now()
	rec, run, err := plan.Run(ctx, dir, stdout)
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("%v (results so far: %s)", err, dir)
	}
	if latest != "" {
		resultsdir.PointLatest(latest, dir)
	}
	writeCapacityTable(stdout, rec, slo)
	fmt.Fprintf(stdout, "\nwall time %s; results: %s\n", time.Since(started).Round(100*time.Millisecond), dir)
	if !run.Complete {
		fmt.Fprintf(stdout, "interrupted: the searches finished so far are in %s\n", dir)
		return interrupt.Of(ctx)
	}
	if !*noReport {
		if _, err := outputs.WriteResult(dir, report.Options{Stores: linked.Catalog(), SLO: &slo}); err != nil {
			return fmt.Errorf("report: %w", err)
		}
	}
	return nil
}

// resolveCapacity lays the flags over the config file over the defaults and checks
// every field, naming the first that is wrong, before anything is created.
func resolveCapacity(fs *flag.FlagSet, configFile string) (campaign.Plan, report.SLO, error) {
	cfg := capacity.DefaultConfig(linked.Catalog())
	var err error
	if configFile != "" {
		if cfg, err = capacity.LoadConfig(linked.Catalog(), configFile); err != nil {
			return campaign.Plan{}, report.SLO{}, err
		}
	}
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
		return campaign.Plan{}, report.SLO{}, err
	}
	slo, err := report.ParseSLO(cfg.SLO)
	if err != nil {
		return campaign.Plan{}, slo, fmt.Errorf("slo: %w", err)
	}
	plan, err := campaign.Check(cfg, capacity.Budget{Metric: slo.Metric, Percentile: slo.Percentile, Limit: slo.Budget})
	return plan, slo, err
}

// writeCapacityTable prints one row per search.
func writeCapacityTable(w io.Writer, rec capacity.Record, slo report.SLO) {
	fmt.Fprintf(w,
		"\ncapacity: highest offered rate that kept %s on two probes (a rate broke on two; a third settles a split)\n\n", slo)
	fmt.Fprintf(w, "%-10s %-28s %-46s %-44s %s\n", "strategy", "condition", "highest rate within budget",
		"saturated at the top probes", "servers")
	for _, s := range rec.Searches {
		cond := fmt.Sprintf("%d clients, %d keys, %s", s.Clients, s.Keys, s.Arrival)
		fmt.Fprintf(w, "%-10s %-28s %-46s %-44s %d\n", s.Strategy, cond, report.CapacityCell(s), s.Saturated, s.Servers)
	}
}
