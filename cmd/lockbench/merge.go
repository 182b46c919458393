package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/lockbench/lockbench/merge"
	"github.com/lockbench/lockbench/safety/suite"
)

func init() {
	commands["merge"] = command{"add up the folders of a run's workers (run --worker I/N) or of a safety campaign's " +
		"(safety --worker I/N) into one results folder: lockbench merge --out OUT DIR... [--max-skew 10ms]", runMerge}
}

func runMerge(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := commandFlags("merge", stderr)
	out := fs.String("out", "", "the merged results folder (must not exist or be empty)")
	skew := fs.Duration("max-skew", merge.DefaultMaxSkew,
		"warn when the workers' actual starts or clock offsets to the target disagree by more than this")
	dirs, err := parseInterspersed(fs, args)
	if err != nil {
		return usagef("%v", err)
	}
	switch {
	case *out == "":
		return usagef("--out: where to write the merged folder is missing: lockbench merge --out OUT DIR...")
	case len(dirs) == 0:
		return usagef("no worker folders given: lockbench merge --out OUT DIR...")
	case *skew <= 0:
		return usagef("--max-skew %v: want a positive duration", *skew)
	}
	if merge.IsSafetyFolder(dirs[0]) {
		return mergeSafety(*out, dirs, stdout, stderr)
	}
	res, err := merge.Merge(*out, dirs, merge.Options{MaxSkew: *skew, CommandLine: os.Args})
	if err != nil {
		return mergeError(err)
	}
	warn(stderr, res.Warnings)
	fmt.Fprintf(stdout, "merged %d workers' folders (%d cells) into %s\n", len(dirs), len(res.Run.Cells), *out)
	return nil
}

// mergeSafety adds up the folders of a safety campaign's workers, with the figures
// `lockbench safety` draws.
func mergeSafety(out string, dirs []string, stdout, stderr io.Writer) error {
	res, err := merge.MergeSafety(out, dirs, merge.SafetyOptions{CommandLine: os.Args, Draw: safetyFigures.Draw})
	if err != nil {
		return mergeError(err)
	}
	warn(stderr, res.Warnings)
	trials := 0
	for _, r := range res.Results.Reports {
		trials += suite.TrialsIn(r)
	}
	fmt.Fprintf(stdout,
		"merged %d workers' safety folders (%d scenarios, %d trials) into %s: %s/results.json, %s/results.md\n", len(dirs),
		len(res.Results.Reports), trials, out, out, out)
	return nil
}

// mergeError is merge's error as the command's: bad input is a usage error (exit 2).
func mergeError(err error) error {
	var bad merge.InputError
	if errors.As(err, &bad) {
		return usageError{bad.Error()}
	}
	return err
}

// warn prints what merge warned of.
func warn(stderr io.Writer, warnings []string) {
	for _, w := range warnings {
		fmt.Fprintf(stderr, "lockbench merge: warning: %s\n", w)
	}
}
