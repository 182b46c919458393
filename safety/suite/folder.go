package suite

import (
	"fmt"
	"io"

	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/safety/results"
)

// Folder is the results folder of one run as it grows: rewritten after every finished
// trial, so that an interrupt loses none of them.
type Folder struct {
	dir string
	res results.Results // the header, and the reports of the scenarios finished
	// resumed are the reports, by scenario, of the interrupted run being carried on.
	resumed map[string]*results.Report
	// writeErr is the first write after a trial that failed; the run reports it.
	writeErr error
	// binary is this program's (resultsdir.Environment.Binary), stamped on the reports it runs.
	binary string
}

// NewFolder is the folder of a fresh run of cmd.
func NewFolder(dir string, cmd results.Command, env resultsdir.Environment) *Folder {
	return &Folder{dir: dir, binary: env.Binary, res: results.Results{Command: &cmd, Environment: &env}}
}

// Dir is where the folder is.
func (f *Folder) Dir() string { return f.dir }

// Drawer draws the figures of a run's reports into its folder. The plots package reads
// this one's results, so the command hands it in rather than this package importing it.
type Drawer struct {
	Dir  string // the folder inside the results folder the figures go to
	Draw func(dir string, reports []*results.Report) ([]results.FigureRef, error)
}

// keep adds a finished report, or the trials a cut-short one got through; a resumed
// run stopped before it replayed them all keeps the interrupted run's instead.
func (f *Folder) keep(scenario string, rep *results.Report) {
	if earlier := f.resumed[scenario]; earlier != nil && (rep == nil || TrialsIn(rep) < TrialsIn(earlier)) {
		rep = earlier
	} else if rep != nil {
		rep.Binary = f.binary
	}
	if rep == nil || TrialsIn(rep) == 0 {
		return
	}
	f.res.Reports = append(f.res.Reports, rep)
}

// writePartial rewrites results.json and results.md, marked incomplete, with the
// finished reports and the one under way.
func (f *Folder) writePartial(running *results.Report) {
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
func (f *Folder) writeFinal(stdout io.Writer, complete bool, figures Drawer) error {
	res := f.res
	res.Complete = complete
	var figs []results.FigureRef
	var figErr error
	if figures.Draw != nil {
		figs, figErr = figures.Draw(f.dir, res.Reports)
	}
	res.Figures = append(res.Figures, figs...)
	if err := results.Write(f.dir, res); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "results: %s/results.json, %s/results.md\n", f.dir, f.dir)
	if len(figs) > 0 {
		fmt.Fprintf(stdout, "figures: %d in %s/%s\n", len(figs), f.dir, figures.Dir)
	}
	if figErr != nil {
		return fmt.Errorf("figures: %w", figErr)
	}
	return f.writeErr
}

// trialsIn counts the trials a report holds, over its variants.
func TrialsIn(rep *results.Report) int {
	n := 0
	for _, v := range rep.Variants {
		n += v.Tally.Trials
	}
	return n
}
