package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/internal/flagrecord"
	"github.com/lockbench/lockbench/internal/interrupt"
	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/plots/violations"
	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/safety/suite"
	"github.com/lockbench/lockbench/sweep"
	"github.com/lockbench/lockbench/topologies"
)

func init() {
	commands["safety"] = command{"reproduce a way a Redis lock breaks on real servers and count it (results.json in " +
		"--out)", runSafety}
}

func runSafety(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := commandFlags("safety", stderr)
	scenario := fs.String("scenario", "", "scenario name, or all (see --list)")
	all := fs.Bool("all", false,
		"every scenario, as --scenario all: results.md opens with the table of the write-up's claims")
	trials := fs.Int("trials", 20,
		"trials per variant (per point for sweeps); with --until-width, the most each variant runs")
	untilWidth := fs.String("until-width", "",
		"stop each variant once its 95% confidence sequence (valid under stopping on the data) is narrower than this, e.g. "+
			"5% or 0.05; its tables then read that interval")
	seed := fs.Int64("seed", 1, "seed of every random choice; the same seed replays them")
	worker := fs.String("worker", "",
		"run only share I of N (I from 0) of the campaign: trial n of every variant when n % N == I, with the seed the "+
			"whole run gives it; each worker starts its own servers, and lockbench merge adds the N folders up")
	out := fs.String("out", "", "results folder: results.json, results.md, figures/ and viz/ (porcupine pages)")
	resume := fs.String("resume", "",
		"carry on the interrupted run in this folder instead of --out: alone, with the flags it recorded; flags given "+
			"beside it must agree")
	list := fs.Bool("list", false, "list scenarios, their params, the strategies and the registered faults, then exit")
	var server string
	registerServerFlavour(fs, &server)
	provider := fs.String("provider", "",
		"topology provider for every scenario: "+strings.Join(topologies.ProviderNames(),
			", ")+" (default: each kind's own; auto: processes when installed, else containers, else embedded)")
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
		suite.List(stdout)
		return nil
	}
	var recorded results.Results // the interrupted run --resume carries on
	if *resume != "" {
		var err error
		if recorded, err = suite.ReadRecord(*resume); err != nil {
			return err
		}
		carried, err := completeSafetyFlags(fs, *resume, *recorded.Command)
		if err != nil {
			return err
		}
		if len(carried) > 0 {
			fmt.Fprintf(stderr, "safety: --resume %s carries on the recorded %s\n", *resume, flagrecord.Join(carried))
		}
	}
	if *all {
		if *scenario != "" && *scenario != "all" {
			return usagef("--all and --scenario %s: give one", *scenario)
		}
		*scenario = "all"
	}
	chosen, err := suite.Choose(*scenario, lab.Params(params))
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
	share, err := safetyWorker(*worker, *trials, width)
	if err != nil {
		return err
	}
	if *out != "" && *resume != "" {
		return usagef("--resume %s takes the place of --out: give one of them", *resume)
	}
	if *out == "" && *resume == "" {
		return usagef("--out is required: the results folder")
	}
	if _, err := backend.ParseServerFlavour(server); err != nil {
		return usagef("--server: %v", err)
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
	if err := preflightScenarios(*provider, chosen, lab.Params(params)); err != nil {
		return err
	}
	cmd := results.Command{Trials: *trials, Seed: *seed, Params: params, Provider: *provider, Server: server,
		RedisImage: redisImage, UntilWidth: width, Worker: share}
	for _, s := range chosen {
		cmd.Scenarios = append(cmd.Scenarios, s.Name())
	}
	software := sweep.Environment(sweep.Config{Provider: *provider, Seed: uint64(*seed), Server: server}, os.Args)
	folder := suite.NewFolder(*out, cmd, software)
	if *resume != "" {
		if folder, err = suite.Resume(stdout, *resume, recorded, cmd, software); err != nil || folder == nil {
			return err
		}
	}

	// Ctrl-C cancels the run: the trial under way stops, its fault is healed and the
	// scenario closes its topologies as ctx ends; every finished trial is kept.
	topologies.HandleSignals(false)
	redisconn.SilenceClientLogs()
	ctx, stop := interrupt.Notify()
	defer stop()
	containers := func() error { return checkProvider("container", redisImage) }
	runner := &suite.Suite{Scenarios: chosen, Env: suite.NewEnv(cmd, folder, stderr), Folder: folder,
		Cuts: suite.PartitionFallback(*provider, containers), Figures: safetyFigures, Stdout: stdout, Stderr: stderr}
	return runner.Run(ctx)
}

// safetyFigures draws the figures of a safety run with plots/violations.
var safetyFigures = suite.Drawer{Dir: plots.Dir, Draw: func(dir string,
	reports []*results.Report) ([]results.FigureRef, error) {
	figs, err := violations.WriteSafety(dir, linked.Catalog(), reports)
	var refs []results.FigureRef
	for _, fig := range figs {
		refs = append(refs, results.FigureRef{Name: fig.Name, Files: fig.Files, Caption: fig.Caption})
	}
	return refs, err
}}
