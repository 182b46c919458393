package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/safety"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/safety/results"
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
	p[name] = value
	return nil
}

func runSafety(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("safety", flag.ContinueOnError)
	fs.SetOutput(stderr)
	scenario := fs.String("scenario", "", "scenario name, or all (see --list)")
	trials := fs.Int("trials", 20, "trials per variant (per point for sweeps)")
	seed := fs.Int64("seed", 1, "seed of every random choice; the same seed replays them")
	out := fs.String("out", "", "results folder: results.json, results.md, figures/ and viz/ (porcupine pages)")
	list := fs.Bool("list", false, "list scenarios, their params, the strategies and the registered faults, then exit")
	provider := fs.String("provider", "", "topology provider for every scenario: "+strings.Join(topologies.ProviderNames(), ", ")+" (default: each kind's own)")
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
	chosen, err := chooseScenarios(*scenario, safety.Params(params))
	if err != nil {
		return err
	}
	if *trials < 1 || *trials > 100000 {
		return usagef("--trials %d: want 1 to 100000", *trials)
	}
	if *out == "" {
		return usagef("--out is required: the results folder")
	}
	if *provider != "" {
		if _, err := topologies.ProviderNamed(*provider); err != nil {
			return usagef("--provider: %v", err)
		}
	}
	if st, err := os.Stat(*out); err == nil && !st.IsDir() {
		return usagef("--out %s: exists and is not a folder", *out)
	}

	// Ctrl-C cancels the run: the scenarios close their topologies as ctx ends, and
	// the scenarios that finished are still written.
	topologies.HandleSignals(false)
	locks.SilenceClientLogs()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	env := &safety.Env{
		Trials: *trials,
		Seed:   *seed,
		Params: safety.Params(params),
		OutDir: *out,
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
	return runScenarios(ctx, chosen, env, stdout, stderr)
}

// runScenarios runs each scenario in turn and writes the reports of those that
// finished. When ctx ends (Ctrl-C) it stops, drops the report cut short, writes the
// finished ones and returns errInterrupted; a scenario's failure also stops the run
// with the finished ones written, and bad params (a cross-param check) write nothing.
func runScenarios(ctx context.Context, chosen []safety.Scenario, env *safety.Env, stdout, stderr io.Writer) error {
	var res results.Results
	var runErr error
	for _, s := range chosen {
		start := time.Now()
		fmt.Fprintf(stderr, "safety: %s, %d trials per variant, seed %d\n", s.Name(), env.Trials, env.Seed)
		rep, err := safety.Run(ctx, s, env)
		if ctx.Err() != nil {
			break // a report cut short by the interrupt is not a finished one
		}
		var perr *safety.ParamError
		if errors.As(err, &perr) {
			return usagef("--param: %v", err)
		}
		if err != nil {
			runErr = fmt.Errorf("scenario %s: %w", s.Name(), err)
			break
		}
		fmt.Fprintf(stderr, "safety: %s done in %v\n", s.Name(), time.Since(start).Round(time.Second))
		fmt.Fprintln(stdout, rep.Table())
		res.Reports = append(res.Reports, rep)
	}
	interrupted := ctx.Err() != nil
	if len(res.Reports) > 0 {
		if err := writeSafety(stdout, env.OutDir, res); err != nil {
			return err
		}
	}
	if interrupted {
		fmt.Fprintf(stdout, "\ninterrupted after %d of %d scenarios", len(res.Reports), len(chosen))
		if len(res.Reports) > 0 {
			fmt.Fprintf(stdout, "; the finished ones are in %s", env.OutDir)
		}
		fmt.Fprintln(stdout)
		return errInterrupted
	}
	return runErr
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

// writeSafety draws the figures, then writes results.json and results.md. Figures
// come first so that results.md can link them; a plotting error still leaves the
// measured results written, then fails the command.
func writeSafety(stdout io.Writer, out string, res results.Results) error {
	figs, figErr := plots.WriteSafety(out, res.Reports)
	for _, f := range figs {
		res.Figures = append(res.Figures, results.FigureRef{Name: f.Name, Files: f.Files, Caption: f.Caption})
	}
	if err := results.Write(out, res); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "results: %s/results.json, %s/results.md\n", out, out)
	if len(figs) > 0 {
		fmt.Fprintf(stdout, "figures: %d in %s/%s\n", len(figs), out, plots.Dir)
	}
	if figErr != nil {
		return fmt.Errorf("figures: %w", figErr)
	}
	return nil
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
