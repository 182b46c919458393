package main

import (
	"io"

	"github.com/lockbench/lockbench/preflight"
	"github.com/lockbench/lockbench/sweep"
)

func init() {
	commands["doctor"] = command{"print what each provider can serve on this machine, what --provider auto picks and " +
		"what is missing; exit 1 when run --quick cannot run", runDoctor}
}

// errQuickCannotRun exits 1 after doctor printed why.
type errQuickCannotRun struct{}

func (errQuickCannotRun) Error() string {
	return "run --quick cannot run on this machine (see missing above)"
}

func runDoctor(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := commandFlags("doctor", stderr)
	if err := fs.Parse(args); err != nil {
		return usagef("%v", err)
	}
	if fs.NArg() > 0 {
		return usagef("unexpected arguments %q: doctor takes none", fs.Args())
	}
	cells, err := sweep.QuickConfig().Cells()
	if err != nil {
		return err
	}
	quick, err := preflight.ForCells(cells)
	if err != nil {
		return err
	}
	if !preflight.Doctor(stdout, quick) {
		return errQuickCannotRun{}
	}
	return nil
}
