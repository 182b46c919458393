package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/lockbench/lockbench/adr"
)

// runADR writes a draft architecture decision record from a workload file and
// results folders: lockbench adr --workload w.yaml --results DIR[,DIR...] --out adr.md.
func runADR(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("adr", flag.ContinueOnError)
	fs.SetOutput(stderr)
	workload := fs.String("workload", "", "the decision's workload file (YAML; see docs/adr.md)")
	var dirs listFlag
	fs.Var(&dirs, "results", "results folders of `lockbench run` and `lockbench safety` (comma-separate or repeat)")
	out := fs.String("out", "", "the ADR to write (figures go to figures/ beside it)")
	date := fs.String("date", "", "the ADR's date, YYYY-MM-DD (default: today, UTC)")
	plan := fs.Bool("plan", false, "print what the ADR needs that the given results (if any) lack: each lockbench command with its estimated time; --out is the folder the commands write under (default "+defaultMeasureDir+")")
	if err := fs.Parse(args); err != nil {
		return usagef("%v", err)
	}
	if *plan {
		return runADRPlan(*workload, dirs, *out, fs.Args(), stdout)
	}
	switch {
	case fs.NArg() > 0:
		return usagef("unexpected argument %q: lockbench adr --workload w.yaml --results DIR[,DIR...] --out adr.md", fs.Arg(0))
	case *workload == "":
		return usagef("--workload is required")
	case len(dirs) == 0:
		return usagef("--results is required")
	case *out == "":
		return usagef("--out is required")
	}
	if *date == "" {
		*date = time.Now().UTC().Format(time.DateOnly)
	} else if _, err := time.Parse(time.DateOnly, *date); err != nil {
		return usagef("--date %q: want YYYY-MM-DD", *date)
	}
	cmd := fmt.Sprintf("lockbench adr --workload %s --results %s --out %s", *workload, strings.Join(dirs, ","), *out)
	d, err := adr.Generate(adr.Request{Workload: *workload, Results: dirs, Out: *out, Date: *date, Command: cmd})
	var field adr.FieldError
	var input adr.InputError
	if errors.As(err, &field) || errors.As(err, &input) {
		return usageError{err.Error()}
	}
	if err != nil {
		return err
	}
	chosen := "none yet (no option is shown to meet the purpose)"
	if d.Chosen != nil {
		chosen = d.Chosen.Name
	}
	fmt.Fprintf(stdout, "wrote %s: %d options, chosen: %s\n", *out, len(d.Options), chosen)
	return nil
}
