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
}

// Write reads the results folder dir (every histogram log included), draws its figures
// into dir/figures and writes dir/report.md. Bad input is refused before anything is
// written, with an error that names the file.
func Write(dir string, opts Options) error {
	run, err := Load(dir)
	if err != nil {
		return err
	}
	run, err = Only(run, opts.Strategies)
	if err != nil {
		return err
	}
	figs, err := plots.WriteAll(dir, run)
	if err != nil {
		return err
	}
	md := Markdown(run, figs, opts)
	return resultsdir.WriteFileAtomic(filepath.Join(dir, File), []byte(md))
}
