package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/lockbench/lockbench/adr"
	"github.com/lockbench/lockbench/adr/workload"
)

// runADR writes a draft architecture decision record from a workload file and
// results folders: lockbench adr --workload w.yaml --results DIR[,DIR...] --out adr.md.
func runADR(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := commandFlags("adr", stderr)
	workloadFile := fs.String("workload", "", "the decision's workload file (YAML; see docs/adr.md)")
	var dirs listFlag
	fs.Var(&dirs, "results", "results folders of `lockbench run` and `lockbench safety` (comma-separate or repeat)")
	out := fs.String("out", "", "the ADR to write (figures go to figures/ beside it)")
	date := fs.String("date", "", "the ADR's date, YYYY-MM-DD (default: today, UTC)")
	plan := fs.Bool("plan", false, "print what the ADR needs that the given results (if any) lack: each lockbench "+
		"command with its estimated time; --out is the folder the commands write under (default "+defaultMeasureDir+")")
	measure := fs.Bool("measure", false, "plan as --plan, run the plan's commands into --out (resumably: a complete "+
		"folder is kept, an interrupted one carried on), then write --out/adr.md")
	budget := fs.Duration("time-budget", 0,
		"with --measure: leave the steps whose estimate would pass this (e.g. 30m); 0: no limit")
	if err := fs.Parse(args); err != nil {
		return usagef("%v", err)
	}
	if *plan && *measure {
		return usagef("--plan and --measure: give one")
	}
	if *plan {
		return runADRPlan(*workloadFile, dirs, *out, fs.Args(), stdout)
	}
	if *budget < 0 {
		return usagef("--time-budget %v is negative", *budget)
	}
	if *budget > 0 && !*measure {
		return usagef("--time-budget needs --measure")
	}
	if *measure {
		switch {
		case fs.NArg() > 0:
			return usagef("unexpected argument %q", fs.Arg(0))
		case *workloadFile == "":
			return usagef("--workload is required")
		case *out == "":
			return usagef("--out is required: the folder the measurements and the ADR go to")
		}
		d, err := adrDate(*date)
		if err != nil {
			return err
		}
		return runADRMeasure(*workloadFile, dirs, *out, *budget, d, stdout, stderr)
	}
	switch {
	case fs.NArg() > 0:
		return usagef("unexpected argument %q: lockbench adr --workload w.yaml --results DIR[,DIR...] --out adr.md",
			fs.Arg(0))
	case *workloadFile == "":
		return usagef("--workload is required")
	case len(dirs) == 0:
		return usagef("--results is required")
	case *out == "":
		return usagef("--out is required")
	}
	day, err := adrDate(*date)
	if err != nil {
		return err
	}
	cmd := fmt.Sprintf("lockbench adr --workload %s --results %s --out %s", *workloadFile, strings.Join(dirs, ","), *out)
	d, err := adr.Generate(adr.Request{Workload: *workloadFile, Results: dirs, Out: *out, Date: day, Command: cmd})
	var field workload.FieldError
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

// adrDate is the ADR's date: as given (YYYY-MM-DD), or today, UTC.
func adrDate(date string) (string, error) {
	if date == "" {
		return time.Now().UTC().Format(time.DateOnly), nil
	}
	if _, err := time.Parse(time.DateOnly, date); err != nil {
		return "", usagef("--date %q: want YYYY-MM-DD", date)
	}
	return date, nil
}
