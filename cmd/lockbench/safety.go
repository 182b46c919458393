package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/lockbench/lockbench/internal/interrupt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/sweep"
	"github.com/lockbench/lockbench/topologies"
)

func init() {
	commands["safety"] = command{"reproduce a way a Redis lock breaks on real servers and count it (results.json in --out)", runSafety}
}

// paramFlags collects repeated --param name=value.
type paramFlags safety.Params

func (p paramFlags) String() string { return fmt.Sprint(map[string]string(p)) }
func (p paramFlags) Set(v string) error {
	name, value, ok := strings.Cut(v, "=")
	if !ok || name == "" {
		return fmt.Errorf("want name=value, got %q", v)
	}
	if _, twice := p[name]; twice { // the last would silently win
		return fmt.Errorf("%s given twice", name)
	}
	p[name] = value
	return nil
}

func runSafety(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("safety", flag.ContinueOnError)
	fs.SetOutput(stderr)
	scenario := fs.String("scenario", "", "scenario name, or all (see --list)")
	all := fs.Bool("all", false, "every scenario, as --scenario all: results.md opens with the table of the write-up's claims")
	trials := fs.Int("trials", 20, "trials per variant (per point for sweeps); with --until-width, the most each variant runs")
	untilWidth := fs.String("until-width", "", "stop each variant once its 95% confidence sequence (valid under stopping on the data) is narrower than this, e.g. 5% or 0.05; its tables then read that interval")
	seed := fs.Int64("seed", 1, "seed of every random choice; the same seed replays them")
	out := fs.String("out", "", "results folder: results.json, results.md, figures/ and viz/ (porcupine pages)")
	resume := fs.String("resume", "", "carry on the interrupted run in this folder instead of --out: alone, with the flags it recorded; flags given beside it must agree")
	list := fs.Bool("list", false, "list scenarios, their params, the strategies and the registered faults, then exit")
	provider := fs.String("provider", "", "topology provider for every scenario: "+strings.Join(topologies.ProviderNames(), ", ")+" (default: each kind's own; auto: processes when installed, else containers, else embedded)")
	var redisImage string
	registerRedisImage(fs, &redisImage)
	params := paramFlags{}
	fs.Var(params, "param", "scenario parameter name=value (repeatable; see --list)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usagef("%v", err)
	}
	if fs.NArg() > 0 {
		return usagef("unexpected arguments %q", fs.Args())
	}
	if *list {
		printScenarios(stdout)
		return nil
	}
	var recorded results.Results // the interrupted run --resume carries on
	if *resume != "" {
		var err error
		if recorded, err = readSafetyRecord(*resume); err != nil {
			return err
		}
		carried, err := completeSafetyFlags(fs, *resume, *recorded.Command)
		if err != nil {
			return err
		}
		if len(carried) > 0 {
			fmt.Fprintf(stderr, "safety: --resume %s carries on the recorded %s\n", *resume, joinFlags(carried))
		}
	}
	if *all {
		if *scenario != "" && *scenario != "all" {
			return usagef("--all and --scenario %s: give one", *scenario)
		}
		*scenario = "all"
	}
	chosen, err := chooseScenarios(*scenario, safety.Params(params))
	if err != nil {
		return err
	}
	if *trials < 1 || *trials > 100000 {
		return usagef("--trials %d: want 1 to 100000", *trials)
	}
	width, err := parseWidth(*untilWidth)
	if err != nil {
		return err
	}
	if *out != "" && *resume != "" {
		return usagef("--resume %s takes the place of --out: give one of them", *resume)
	}
	if *out == "" && *resume == "" {
		return usagef("--out is required: the results folder")
	}
	if err := refuseExternalFaults("safety", *provider); err != nil {
		return err
	}
	if *provider != "" {
		if _, err := topologies.ProviderNamed(*provider); err != nil {
			return usagef("--provider: %v", err)
		}
	}
	if err := checkProvider(*provider, redisImage); err != nil {
		return err
	}
	if st, err := os.Stat(*out); *out != "" && err == nil && !st.IsDir() {
		return usagef("--out %s: exists and is not a folder", *out)
	}
	if err := preflightScenarios(*provider, chosen, safety.Params(params)); err != nil {
		return err
	}
	cmd := results.Command{Trials: *trials, Seed: *seed, Params: params, Provider: *provider, RedisImage: redisImage, UntilWidth: width}
	for _, s := range chosen {
		cmd.Scenarios = append(cmd.Scenarios, s.Name())
	}
	software := sweep.Environment(sweep.Config{Provider: *provider, Seed: uint64(*seed)}, os.Args)
	folder := newSafetyFolder(*out, cmd, software)
	if *resume != "" {
		if folder, err = resumeSafetyFolder(stdout, *resume, recorded, cmd, software); err != nil || folder == nil {
			return err
		}
	}

	// Ctrl-C cancels the run: the trial under way stops, its fault is healed and the
	// scenario closes its topologies as ctx ends; every finished trial is kept.
	topologies.HandleSignals(false)
	locks.SilenceClientLogs()
	ctx, stop := interrupt.Notify()
	defer stop()
	env := &safety.Env{
		Trials:     *trials,
		UntilWidth: width,
		Seed:       *seed,
		Params:     safety.Params(params),
		OutDir:     folder.dir,
		Resume:     folder.resumed,
		Start: func(ctx context.Context, spec topologies.Spec) (topologies.Topology, error) {
			p, err := topologies.DefaultProvider(spec.Kind)
			if *provider != "" {
				p, err = topologies.ProviderNamed(*provider)
			}
			if err != nil {
				return nil, err
			}
			return p.Start(ctx, spec)
		},
		Logf: func(format string, a ...any) { fmt.Fprintf(stderr, format+"\n", a...) },
	}
	return runScenarios(ctx, chosen, env, folder, partitionFallback(*provider, redisImage), stdout, stderr)
}

// partitionFallback is where --all runs the scenarios that cut links when no
// --provider was given (processes cannot partition): containers, once an engine
// answers; nil when --provider was given or no engine answers, and they are skipped.
func partitionFallback(provider, redisImage string) *cutProvider {
	if provider != "" {
		return nil
	}
	return &cutProvider{
		name:  "container",
		check: func() error { return checkProvider("container", redisImage) },
		startOn: func(ctx context.Context, spec topologies.Spec) (topologies.Topology, error) {
			p, err := topologies.ProviderNamed("container")
			if err != nil {
				return nil, err
			}
			return p.Start(ctx, spec)
		},
	}
}

// cutProvider starts the topologies of the partition scenarios, its engine checked once.
type cutProvider struct {
	name    string
	check   func() error
	startOn safety.StartFunc
	checked bool
	err     error
}

// start is the fallback's StartFunc, or the reason there is none.
func (c *cutProvider) start() (safety.StartFunc, error) {
	if !c.checked {
		c.checked, c.err = true, c.check()
	}
	return c.startOn, c.err
}

// runScenarios runs each scenario in turn, writing the folder after every trial, and
// at the end with the figures. A scenario the resumed run finished is kept as it was.
// When ctx ends (Ctrl-C) it stops, keeps the trials the scenario cut short got
// through, and returns the interruption; a scenario's failure also stops the run
// with what finished written, and bad params (a cross-param check) write nothing.
func runScenarios(ctx context.Context, chosen []safety.Scenario, env *safety.Env, folder *safetyFolder, cuts *cutProvider, stdout, stderr io.Writer) error {
	var runErr error
	finished := 0
	env.OnTrial = folder.writePartial
	for _, s := range chosen {
		if done := folder.resumed[s.Name()]; done != nil && done.Complete {
			fmt.Fprintf(stderr, "safety: %s finished before the interruption: kept as it was\n", s.Name())
			folder.keep(s.Name(), done)
			finished++
			continue
		}
		start := time.Now()
		fmt.Fprintf(stderr, "safety: %s, %d trials per variant, seed %d\n", s.Name(), env.Trials, env.Seed)
		rep, err := safety.Run(ctx, s, env)
		if err != nil && errors.Is(err, safety.ErrNeedsPartitions) && len(chosen) > 1 && cuts != nil && ctx.Err() == nil {
			rep, err = runOnCuttingProvider(ctx, s, env, cuts, err, stderr)
		}
		var perr *safety.ParamError
		if errors.As(err, &perr) {
			return usagef("--param: %v", err)
		}
		if ctx.Err() != nil {
			folder.keep(s.Name(), rep) // the trials that finished before the interrupt
			break
		}
		if err != nil && errors.Is(err, safety.ErrNeedsPartitions) && len(chosen) > 1 {
			fmt.Fprintf(stderr, "safety: %s skipped: %v\n", s.Name(), err) // all: the others still run
			finished++
			continue
		}
		if err != nil {
			folder.keep(s.Name(), rep)
			runErr = fmt.Errorf("scenario %s: %w", s.Name(), err)
			break
		}
		fmt.Fprintf(stderr, "safety: %s done in %v\n", s.Name(), time.Since(start).Round(time.Second))
		fmt.Fprintln(stdout, rep.Table())
		folder.keep(s.Name(), rep)
		finished++
	}
	interrupted := ctx.Err() != nil
	if len(folder.res.Reports) > 0 {
		if err := folder.writeFinal(stdout, finished == len(chosen)); err != nil {
			return err
		}
	}
	if interrupted {
		fmt.Fprintf(stdout, "\ninterrupted after %d of %d scenarios", finished, len(chosen))
		if len(folder.res.Reports) > 0 {
			fmt.Fprintf(stdout, "; every trial that finished is in %s (carry on: lockbench safety --resume %s)", folder.dir, folder.dir)
		}
		fmt.Fprintln(stdout)
		return interrupt.Of(ctx)
	}
	return runErr
}

// runOnCuttingProvider runs again, on the fallback provider, a scenario that refused
// the default one for lack of partitions; without a fallback it returns the refusal.
func runOnCuttingProvider(ctx context.Context, s safety.Scenario, env *safety.Env, cuts *cutProvider, refusal error, stderr io.Writer) (*results.Report, error) {
	start, err := cuts.start()
	if err != nil {
		return nil, fmt.Errorf("%w (and provider %s: %v)", refusal, cuts.name, err)
	}
	fmt.Fprintf(stderr, "safety: %s cuts links, which processes cannot: its servers run on provider %s\n", s.Name(), cuts.name)
	moved := *env
	moved.Start = start
	rep, err := safety.Run(ctx, s, &moved)
	if rep != nil {
		rep.Provider = cuts.name
	}
	return rep, err
}

// chooseScenarios resolves --scenario and checks --param against it before anything
// starts: an unknown name or a bad value is a usage error.
func chooseScenarios(name string, params safety.Params) ([]safety.Scenario, error) {
	if name == "" {
		return nil, usagef("--scenario is required: one of %s, or all", strings.Join(safety.Names(), ", "))
	}
	if name == "all" {
		if len(params) > 0 {
			return nil, usagef("--param applies to one scenario, not to --scenario all")
		}
		var all []safety.Scenario
		for _, n := range safety.Names() {
			s, err := safety.Lookup(n)
			if err != nil {
				return nil, err
			}
			all = append(all, s)
		}
		return all, nil
	}
	s, err := safety.Lookup(name)
	if err != nil {
		return nil, usagef("--scenario: %v", err)
	}
	if _, err := safety.Parse(s.Name(), s.Params(), params); err != nil {
		return nil, usagef("--param: %v", err)
	}
	return []safety.Scenario{s}, nil
}

func printScenarios(w io.Writer) {
	fmt.Fprintln(w, "scenarios:")
	for _, n := range safety.Names() {
		s, err := safety.Lookup(n)
		if err != nil {
			continue
		}
		fmt.Fprintf(w, "  %-18s %s\n", n, s.Summary())
		for _, p := range s.Params() {
			fmt.Fprintf(w, "      --param %s=%s  %s\n", p.Name, p.Default, p.Help)
		}
	}
	// The etcd strategies are here because this command imports locks/etcdlock.
	all := func(safety.Store) bool { return true }
	fmt.Fprintf(w, "strategies with a store: %s\n", strings.Join(safety.StrategiesWhere(all), ", "))
	fmt.Fprintf(w, "faults: %s\n", strings.Join(nemesis.Names(), ", "))
}
