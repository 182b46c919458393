// Package outputs writes what a results folder shows a reader: its figures first
// (plots), then report.md naming them (report). It is the one step above both, so
// that the report formats data and draws nothing, and the figures know no report.
package outputs

import "github.com/lockbench/lockbench/report"

// Write reads the results folder dir (every histogram log included), draws its figures
// into dir/figures and writes dir/report.md. Bad input is refused before anything is
// written, with a report.InputError that names the file.
func Write(dir string, opts report.Options) error {
	_, err := WriteResult(dir, opts)
	return err
}

// WriteResult is Write, returning what it wrote.
func WriteResult(dir string, opts report.Options) (*report.Result, error) {
	in, err := report.Read(dir, opts)
	if err != nil {
		return nil, err
	}
	figs, err := draw(in)
	if err != nil {
		return nil, err
	}
	return report.Write(in, figs)
}
