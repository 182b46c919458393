package main

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/resultsdir/samerun"
	"github.com/lockbench/lockbench/safety/results"
)

// safetyFolder is the results folder of one `lockbench safety` run as it grows:
// rewritten after every finished trial, so that an interrupt loses none of them.
type safetyFolder struct {
	dir string
	res results.Results // the header, and the reports of the scenarios finished
	// resumed are the reports, by scenario, of the interrupted run being carried on.
	resumed map[string]*results.Report
	// writeErr is the first write after a trial that failed; the run reports it.
	writeErr error
	// binary is this program's (resultsdir.Environment.Binary), stamped on the reports it runs.
	binary string
}

// newSafetyFolder is the folder of a fresh run of cmd.
func newSafetyFolder(dir string, cmd results.Command, env resultsdir.Environment) *safetyFolder {
	return &safetyFolder{dir: dir, binary: env.Binary, res: results.Results{Command: &cmd, Environment: &env}}
}

// resumeSafetyFolder checks that res, the interrupted run read from dir, is the run
// cmd asks for, with this software (env): a different run is a usage error naming the
// first difference, and nothing in dir changes. A complete run has nothing left: nil
// folder, nil error.
func resumeSafetyFolder(stdout io.Writer, dir string, res results.Results, cmd results.Command, env resultsdir.Environment) (*safetyFolder, error) {
	recorded := filepath.Join(dir, "results.json")
	if d, ok := samerun.First(cmd, *res.Command); ok {
		return nil, usagef("--resume %s: not the run recorded in %s: %s", dir, recorded, d)
	}
	if d, ok := resultsdir.SoftwareDifference(env, *res.Environment); ok {
		return nil, usagef("--resume %s: %s was measured with other software: %s", dir, recorded, d)
	}
	if res.Complete {
		fmt.Fprintf(stdout, "%s holds a complete run (%d scenarios): nothing to resume\n", dir, len(res.Reports))
		return nil, nil
	}
	for _, r := range res.Reports {
		if err := keptReportDiffers(r, cmd, res.Environment.Binary); err != nil {
			return nil, usagef("--resume %s: %s in %s: %v", dir, r.Scenario, recorded, err)
		}
	}
	f := &safetyFolder{dir: dir, binary: env.Binary, resumed: map[string]*results.Report{}}
	for _, r := range res.Reports {
		f.resumed[r.Scenario] = r
	}
	f.res = results.Results{Command: res.Command, Environment: res.Environment, Resumed: append(res.Resumed, time.Now().UTC())}
	return f, nil
}

// keep adds a finished report, or the trials a cut-short one got through; a resumed
// run stopped before it replayed them all keeps the interrupted run's instead.
func (f *safetyFolder) keep(scenario string, rep *results.Report) {
	if earlier := f.resumed[scenario]; earlier != nil && (rep == nil || trialsIn(rep) < trialsIn(earlier)) {
		rep = earlier
	} else if rep != nil {
		rep.Binary = f.binary
	}
	if rep == nil || trialsIn(rep) == 0 {
		return
	}
	f.res.Reports = append(f.res.Reports, rep)
}

// writePartial rewrites results.json and results.md, marked incomplete, with the
// finished reports and the one under way.
func (f *safetyFolder) writePartial(running *results.Report) {
	res := f.res
	res.Complete = false
	running.Binary = f.binary
	res.Reports = append(append([]*results.Report{}, f.res.Reports...), running)
	if err := results.Write(f.dir, res); err != nil && f.writeErr == nil {
		f.writeErr = fmt.Errorf("write the trials so far: %w", err)
	}
}

// writeFinal draws the figures, then writes results.json and results.md. Figures come
// first so that results.md can link them; a plotting error still leaves the measured
// results written, then fails the command.
func (f *safetyFolder) writeFinal(stdout io.Writer, complete bool) error {
	res := f.res
	res.Complete = complete
	figs, figErr := plots.WriteSafety(f.dir, res.Reports)
	for _, fig := range figs {
		res.Figures = append(res.Figures, results.FigureRef{Name: fig.Name, Files: fig.Files, Caption: fig.Caption})
	}
	if err := results.Write(f.dir, res); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "results: %s/results.json, %s/results.md\n", f.dir, f.dir)
	if len(figs) > 0 {
		fmt.Fprintf(stdout, "figures: %d in %s/%s\n", len(figs), f.dir, plots.Dir)
	}
	if figErr != nil {
		return fmt.Errorf("figures: %w", figErr)
	}
	return f.writeErr
}

func trialsIn(rep *results.Report) int {
	n := 0
	for _, v := range rep.Variants {
		n += v.Tally.Trials
	}
	return n
}
