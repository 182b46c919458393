package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/lockbench/lockbench/adr"
	"github.com/lockbench/lockbench/adr/plan"
	"github.com/lockbench/lockbench/adr/workload"
)

// defaultMeasureDir is where the plan's commands write when --out is not given.
const defaultMeasureDir = "adr-measure"

// runADRPlan prints what the ADR of the workload needs that the given results lack:
// lockbench adr --workload w.yaml --plan [--results DIR...] [--out DIR].
func runADRPlan(workloadFile string, dirs []string, out string, rest []string, stdout io.Writer) error {
	switch {
	case len(rest) > 0:
		return usagef(
			"unexpected argument %q: lockbench adr --workload w.yaml --plan [--results DIR[,DIR...]] [--out DIR]", rest[0])
	case workloadFile == "":
		return usagef("--workload is required")
	}
	if out == "" {
		out = defaultMeasureDir
	}
	w, in, err := planInputs(workloadFile, dirs)
	if err != nil {
		return err
	}
	_, err = fmt.Fprint(stdout, plan.MakePlan(w, workloadFile, in, out).Text())
	return err
}

// planInputs reads the workload and the given results (none: empty inputs); bad
// input is a usage error naming what is wrong.
func planInputs(workloadFile string, dirs []string) (*workload.Workload, *adr.Inputs, error) {
	w, err := adr.LoadWorkload(workloadFile)
	var field workload.FieldError
	if errors.As(err, &field) {
		return nil, nil, usageError{err.Error()}
	}
	if err != nil {
		return nil, nil, err
	}
	in := &adr.Inputs{}
	if len(dirs) > 0 {
		in, err = adr.LoadInputs(dirs)
		var input adr.InputError
		if errors.As(err, &input) {
			return nil, nil, usageError{err.Error()}
		}
		if err != nil {
			return nil, nil, err
		}
	}
	return w, in, nil
}
