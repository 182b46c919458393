package report

import (
	"path/filepath"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/resultsdir"
)

// File is the report's name inside a results folder.
const File = "report.md"

// Options shape a report.
type Options struct {
	// Stores declare the strategies' safety order, ladder and looks (the program passes
	// the stores it links).
	Stores *backend.Catalog
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
	Figures    []Figure
	Capacities []Capacity // with Options.SLO only
}

// Write writes in.Dir/report.md from in, embedding figs, which were drawn into the
// folder from the same Input before.
func Write(in *Input, figs Figures) (*Result, error) {
	res := &Result{Path: filepath.Join(in.Dir, File), Figures: figs.All()}
	if in.Options.SLO != nil {
		res.Capacities = Capacities(in.Options.Stores, in.LockRun, *in.Options.SLO)
	}
	var data *dataSection
	if in.JoinsSafety() {
		data = &dataSection{ways: in.Ways}
		if figs.CostVsLoss != nil {
			data.figure = figs.CostVsLoss.Files[0]
		}
	}
	md := markdown(in.Run, figs.Run, in.Options, data) + capacitySections(in, figs)
	return res, resultsdir.WriteFileAtomic(res.Path, []byte(md))
}
