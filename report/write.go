package report

import (
	"path/filepath"

	"github.com/lockbench/lockbench/plots"
	"github.com/lockbench/lockbench/resultsdir"
)

// File is the report's name inside a results folder.
const File = "report.md"

// Options shape a report.
type Options struct {
	// SLO, when set, adds the capacity answer: the highest offered rate that kept it.
	SLO *SLO
	// Strategies, when set, restricts the report and its figures to these strategies.
	Strategies []string
	// Safety, when set, names safety results folders: their lost-updates variants join
	// the run's update cells in the table "what keeps the data correct".
	Safety []string
}

// InputError is a results folder that cannot be read as asked: not a results folder,
// a newer schema, a corrupt or missing histogram log, an unknown strategy.
type InputError struct{ Err error }

func (e InputError) Error() string { return e.Err.Error() }
func (e InputError) Unwrap() error { return e.Err }

// Result is what a report wrote.
type Result struct {
	Path       string // report.md
	Figures    []plots.Figure
	Capacities []Capacity // with Options.SLO only
}

// Write reads the results folder dir (every histogram log included), draws its figures
// into dir/figures and writes dir/report.md. Bad input is refused before anything is
// written, with an InputError that names the file.
func Write(dir string, opts Options) error {
	_, err := WriteResult(dir, opts)
	return err
}

// WriteResult is Write, returning what it wrote.
func WriteResult(dir string, opts Options) (*Result, error) {
	run, err := Load(dir)
	if err != nil {
		return nil, InputError{err}
	}
	run, err = Only(run, opts.Strategies)
	if err != nil {
		return nil, InputError{err}
	}
	safetyReports, err := readSafety(opts.Safety)
	if err != nil {
		return nil, InputError{err}
	}
	lockRun, _ := SplitUpdates(run)
	var figs []plots.Figure
	if len(lockRun.Cells) > 0 {
		if figs, err = plots.WriteAll(dir, lockRun); err != nil {
			return nil, err
		}
	}
	res := &Result{Path: filepath.Join(dir, File), Figures: figs}
	if opts.SLO != nil {
		res.Capacities = Capacities(lockRun, *opts.SLO)
	}
	data, err := joinSafety(dir, run, safetyReports)
	if err != nil {
		return nil, err
	}
	md := markdown(run, figs, opts, data)
	capText, capFigs, err := capacitySections(dir, lockRun)
	if err != nil {
		return nil, err
	}
	md += capText
	res.Figures = append(res.Figures, capFigs...)
	if data != nil && data.figure != "" {
		res.Figures = append(res.Figures, plots.Figure{Name: plots.CostVsLossName, Files: []string{data.figure}})
	}
	return res, resultsdir.WriteFileAtomic(res.Path, []byte(md))
}
