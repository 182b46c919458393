package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/safety"
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
	out := fs.String("out", "", "results folder: results.json, results.md and viz/ (porcupine pages)")
	list := fs.Bool("list", false, "list scenarios, their params and the registered faults, then exit")
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
	if *scenario == "" {
		return usagef("--scenario is required: one of %s, or all", strings.Join(safety.Names(), ", "))
	}
	var chosen []safety.Scenario
	if *scenario == "all" {
		if len(params) > 0 {
			return usagef("--param applies to one scenario, not to --scenario all")
		}
		for _, n := range safety.Names() {
			s, _ := safety.Lookup(n)
			chosen = append(chosen, s)
		}
	} else {
		s, err := safety.Lookup(*scenario)
		if err != nil {
			return usagef("--scenario: %v", err)
		}
		if err := safety.Params(params).CheckNames(s); err != nil {
			return usagef("--param: %v", err)
		}
		chosen = append(chosen, s)
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

	locks.SilenceClientLogs()
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
	var res safety.Results
	for _, s := range chosen {
		start := time.Now()
		fmt.Fprintf(stderr, "safety: %s, %d trials per variant, seed %d\n", s.Name(), *trials, *seed)
		rep, err := s.Run(context.Background(), env)
		var perr *safety.ParamError
		if errors.As(err, &perr) {
			return usagef("--param: %v", err)
		}
		if err != nil {
			return fmt.Errorf("scenario %s: %w", s.Name(), err)
		}
		fmt.Fprintf(stderr, "safety: %s done in %v\n", s.Name(), time.Since(start).Round(time.Second))
		fmt.Fprintln(stdout, rep.Table())
		res.Reports = append(res.Reports, rep)
	}
	// Figures come first so that results.md can link them; a plotting error still
	// leaves the measured results written, then fails the command.
	figs, figErr := plots.WriteSafety(*out, safetyFigureInput(res.Reports))
	for _, f := range figs {
		res.Figures = append(res.Figures, safety.FigureRef{Name: f.Name, Files: f.Files, Caption: f.Caption})
	}
	if err := safety.WriteResults(*out, res); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "results: %s/results.json, %s/results.md\n", *out, *out)
	if len(figs) > 0 {
		fmt.Fprintf(stdout, "figures: %d in %s/%s\n", len(figs), *out, plots.Dir)
	}
	if figErr != nil {
		return fmt.Errorf("figures: %w", figErr)
	}
	return nil
}

// safetyFigureInput copies what the figures draw out of the lab's reports.
func safetyFigureInput(reports []*safety.Report) []plots.SafetyReport {
	var out []plots.SafetyReport
	for _, r := range reports {
		pr := plots.SafetyReport{Scenario: r.Scenario, Seed: r.Seed}
		for _, s := range r.Series {
			ps := plots.SafetySeries{Name: s.Name, X: s.X, Y: s.Y}
			for _, pt := range s.Points {
				ps.Points = append(ps.Points, plots.SafetyPoint{X: pt.X, Y: pt.Y, N: pt.N})
			}
			pr.Series = append(pr.Series, ps)
		}
		for _, v := range r.Variants {
			pr.Variants = append(pr.Variants, plots.SafetyVariant{Name: v.Name, Judged: v.Judged, OverlapMs: v.OverlapMs.Values})
		}
		out = append(out, pr)
	}
	return out
}

func printScenarios(w io.Writer) {
	fmt.Fprintln(w, "scenarios:")
	for _, n := range safety.Names() {
		s, _ := safety.Lookup(n)
		fmt.Fprintf(w, "  %-18s %s\n", n, s.Summary())
		for _, p := range s.Params() {
			fmt.Fprintf(w, "      --param %s=%s  %s\n", p.Name, p.Default, p.Help)
		}
	}
	fmt.Fprintf(w, "faults: %s\n", strings.Join(safety.FaultNames(), ", "))
}
