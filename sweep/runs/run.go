package runs

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/lockbench/lockbench/internal/interrupt"
	"github.com/lockbench/lockbench/internal/usage"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/sweep"
)

// Plan is one run of a checked matrix.
type Plan struct {
	Config sweep.Config // its RunID is the run's, "" when it has none
	Cells  []sweep.Cell
	Worker *sweep.Worker // nil: the whole run
	// Out is the new results folder ("" for results/<timestamp>); Resume the folder of
	// the interrupted run to carry on instead.
	Out, Resume string
	Flags       map[string]string // the flags beside the config, for flags.json
	Progress    string            // auto, bar or plain
	// CommandLine is the command that made the run, as results.json records it: the
	// run command's own, also when another command (adr --measure) ran it.
	CommandLine []string
}

// Run is a plan with its folder open.
type Run struct {
	plan        Plan
	dir, latest string
	rec         *resultsdir.Run
}

// Start opens the plan's folder before anything is measured: a fresh one holding the
// config and flags, or the interrupted run, checked to be the one the plan asks for
// with this software. A resumed run that is complete has nothing left: nil, nil.
func Start(stdout io.Writer, p Plan) (*Run, error) {
	env := sweep.Environment(p.Config, p.CommandLine)
	env.RunID = p.Config.RunID
	r := &Run{plan: p}
	if p.Resume != "" {
		if p.Out != "" {
			return nil, usage.Errorf("--resume %s takes the place of --out: give one of them", p.Resume)
		}
		rec, err := resumeRun(stdout, p.Resume, p.Config, env, len(p.Cells))
		if err != nil || rec == nil {
			return nil, err
		}
		if p.Config.RunID != "" {
			rec.Environment.RunID = p.Config.RunID // the id of the keys this pass writes
		}
		r.dir, r.rec = p.Resume, rec
		return r, nil
	}
	var err error
	if r.dir, r.latest, err = resultsdir.Prepare(p.Out); err != nil {
		return nil, err
	}
	if err := sweep.SaveConfig(r.dir, p.Config); err != nil {
		return nil, err
	}
	if err := resultsdir.WriteFlags(r.dir, p.Flags); err != nil {
		return nil, err
	}
	r.rec = &resultsdir.Run{Started: time.Now().UTC(), Environment: env}
	return r, nil
}

// Dir is the run's results folder.
func (r *Run) Dir() string { return r.dir }

// Execute measures the cells the folder lacks, then prints their summary. Interrupted,
// it keeps the finished cells, says how to carry on and returns the interruption.
func (r *Run) Execute(ctx context.Context, stdout io.Writer) error {
	p := r.plan
	runner := &sweep.Runner{Config: p.Config, Out: r.dir, Run: r.rec, Observer: NewObserver(stdout, p.Progress, p.Config),
		Worker: p.Worker}
	if err := runner.Execute(ctx, p.Cells); err != nil {
		return fmt.Errorf("%v (results so far: %s)", err, r.dir)
	}
	if r.latest != "" {
		resultsdir.PointLatest(r.latest, r.dir)
	}
	WriteSummary(stdout, r.rec)
	if !r.rec.Complete {
		fmt.Fprintf(stdout,
			"\ninterrupted after %d of %d cells; finished cells are in %s (carry on: lockbench run --resume %s)\n",
			len(r.rec.Cells), len(p.Cells), r.dir, r.dir)
		return interrupt.Of(ctx)
	}
	return nil
}
