package report

import (
	"github.com/lockbench/lockbench/capacity"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/stats"
)

// Input is what a report and its figures are made from: a results folder read whole
// and checked, and what is computed from it once for both.
type Input struct {
	Dir     string
	Options Options
	// Run is the folder's run restricted to Options.Strategies; LockRun its lock
	// cells (the update cells are the data-correctness section's), Groups theirs.
	Run, LockRun *resultsdir.Run
	Groups       []*stats.Group
	// Searched is a `lockbench capacity` folder's record; nil in any other folder.
	Searched *capacity.Record
	// Fits are the Universal Scalability Law fits of throughput against clients.
	Fits []capacity.StrategyFit
	// Ways join the update cells with the safety folders' lost-updates variants, when
	// the report JoinsSafety.
	Ways []*Way
}

// JoinsSafety says whether the report has the section "what keeps the data correct":
// Options.Safety named folders, each holding a lost-updates run.
func (in *Input) JoinsSafety() bool { return len(in.Options.Safety) > 0 }

// Read reads the results folder dir (every histogram log included) and the safety
// folders opts names. Bad input is refused with an InputError that names the file,
// before anything is drawn or written.
func Read(dir string, opts Options) (*Input, error) {
	run, err := Load(dir)
	if err != nil {
		return nil, InputError{err}
	}
	run, err = Only(opts.Stores, run, opts.Strategies)
	if err != nil {
		return nil, InputError{err}
	}
	safetyReports, err := readSafety(opts.Safety)
	if err != nil {
		return nil, InputError{err}
	}
	rec, searched, err := capacity.ReadRecord(dir)
	if err != nil {
		return nil, InputError{err}
	}
	lockRun, updateCells := SplitUpdates(run)
	in := &Input{Dir: dir, Options: opts, Run: run, LockRun: lockRun, Groups: stats.Groups(opts.Stores, lockRun)}
	if searched {
		in.Searched = &rec
	}
	in.Fits = capacity.FitStrategies(in.Groups)
	if in.JoinsSafety() {
		in.Ways = JoinWays(updateCells, safetyReports)
	}
	return in, nil
}
