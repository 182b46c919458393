package runs

import (
	"flag"
	"fmt"
	"io"

	"github.com/lockbench/lockbench/internal/usage"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/sweep"
)

// resumeRun reads the interrupted run in dir and checks it is the one cfg asks for,
// with this software (env): a different run is a usage error naming the first
// difference, and nothing in dir changes. A complete run has nothing left: nil run,
// nil error.
func resumeRun(stdout io.Writer, dir string, cfg sweep.Config, env resultsdir.Environment, cells int) (*resultsdir.Run,
	error) {
	run, err := sweep.Resume(dir, cfg, env)
	if err != nil {
		return nil, usage.Errorf("--resume %s: %v", dir, err)
	}
	if run.Complete {
		fmt.Fprintf(stdout, "%s holds a complete run (%d cells): nothing to resume\n", dir, len(run.Cells))
		return nil, nil
	}
	sweep.MarkResumed(run)
	done := len(run.Cells) + len(run.Skipped) // a worker skips the cells it has no clients in
	fmt.Fprintf(stdout, "resuming %s: %d of %d cells finished, measuring the other %d\n", dir, done, cells, cells-done)
	return run, nil
}

// Recorded reads the folder --resume names and completes the command line from it:
// the flags it recorded that were not given. It returns the matrix to carry on, nil
// when a matrix flag beside --resume asks to build it as a fresh run would.
func Recorded(fs *flag.FlagSet, dir string) (*sweep.Config, error) {
	rec, err := readRunRecord(dir)
	if err != nil {
		return nil, err
	}
	if err := rec.applyTo(fs, dir); err != nil {
		return nil, err
	}
	return resumeMatrix(fs, rec), nil
}
