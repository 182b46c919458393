package main

import (
	"flag"
	"io"
	"strconv"
	"strings"

	"github.com/lockbench/lockbench/report"
	"github.com/lockbench/lockbench/report/compare"
	"github.com/lockbench/lockbench/resultsdir"
)

func init() {
	commands["compare"] = command{"compare two results folders cell by cell: lockbench compare OLD NEW (each a folder or a comma-separated list of repeated runs)", runCompare}
}

func runCompare(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	alpha := fs.Float64("alpha", 0.05, "with repeats on both sides, the Mann-Whitney p-value under which a change is real")
	threshold := fs.String("threshold", "5%", "without repeats, the change under which a difference is called ~ (noise cannot be measured)")
	sides, err := parseInterspersed(fs, args)
	if err != nil {
		return usagef("%v", err)
	}
	if len(sides) != 2 {
		return usagef("want OLD and NEW, got %d arguments: lockbench compare OLD NEW (OLD and NEW may each be dir1,dir2,... of repeated runs)", len(sides))
	}
	if *alpha <= 0 || *alpha >= 1 {
		return usagef("--alpha %g: want a p-value between 0 and 1", *alpha)
	}
	th, err := strconv.ParseFloat(strings.TrimSuffix(*threshold, "%"), 64)
	if err != nil || th <= 0 {
		return usagef("--threshold %q: want a positive percentage like 5%%", *threshold)
	}
	old, err := loadSide(sides[0])
	if err != nil {
		return err
	}
	new, err := loadSide(sides[1])
	if err != nil {
		return err
	}
	res := compare.Compare(old, new, compare.Options{Alpha: *alpha, Threshold: th / 100})
	return res.Write(stdout, sides[0], sides[1])
}

// loadSide reads one side of a comparison: one results folder, or several separated
// by commas whose same-named cells count as repeats.
func loadSide(arg string) ([]*resultsdir.Run, error) {
	var runs []*resultsdir.Run
	for _, dir := range strings.Split(arg, ",") {
		if dir == "" {
			continue
		}
		run, err := report.Load(dir)
		if err != nil {
			return nil, usageError{err.Error()} // every load failure is a bad folder named on the command line
		}
		runs = append(runs, run)
	}
	if len(runs) == 0 {
		return nil, usagef("%q names no results folder", arg)
	}
	return runs, nil
}
