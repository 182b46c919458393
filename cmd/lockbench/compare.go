package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/internal/flagrecord"
	"github.com/lockbench/lockbench/report"
	"github.com/lockbench/lockbench/report/compare"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/stats"
)

func init() {
	commands["compare"] = command{"compare two results folders cell by cell: lockbench compare OLD NEW (each a folder " +
		"or a comma-separated list of repeated runs); exit 1 when a figure is significantly worse over all figures " +
		"compared (--correction), beyond --threshold and the run-to-run noise", runCompare}
}

func runCompare(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := commandFlags("compare", stderr)
	alpha := fs.Float64("alpha", 0.05,
		"the p-value, adjusted for every figure compared, under which a change is significant")
	correction := fs.String("correction", stats.Holm,
		"how p-values are adjusted for the number of figures: holm (family-wise error rate) or bh (false discovery rate)")
	allowance := fs.String("run-allowance", "50%",
		"with one run a side (run-to-run noise not measured), the slowdown a worsening of p50 or throughput must also "+
			"reach to fail; p99 is then shown, not gated")
	threshold := fs.String("threshold", "5%",
		"the change a significant worsening must reach to fail the comparison (exit 1)")
	intervals := fs.Int("intervals", 0,
		"merge each cell's recorded intervals into K consecutive samples (default: as recorded)")
	sides, err := parseInterspersed(fs, args)
	if err != nil {
		return usagef("%v", err)
	}
	if len(sides) != 2 {
		return usagef("want OLD and NEW, got %d arguments: lockbench compare OLD NEW (OLD and NEW may each be "+
			"dir1,dir2,... of repeated runs)", len(sides))
	}
	if !(*alpha > 0 && *alpha < 1) {
		return usagef("--alpha %g: want a p-value between 0 and 1, both excluded", *alpha)
	}
	th, err := strconv.ParseFloat(strings.TrimSuffix(*threshold, "%"), 64)
	if err != nil || !(th > 0) {
		return usagef("--threshold %q: want a positive percentage like 5%%", *threshold)
	}
	corr, err := stats.ParseCorrection(*correction)
	if err != nil {
		return usagef("%v", err)
	}
	ra, err := strconv.ParseFloat(strings.TrimSuffix(*allowance, "%"), 64)
	if err != nil || ra < 0 {
		return usagef("--run-allowance %q: want a percentage of 0%% or more like 50%%", *allowance)
	}
	if flagrecord.Given(fs, "intervals") && *intervals < 2 {
		return usagef("--intervals %d: want at least 2 samples per cell", *intervals)
	}
	old, err := loadSide(sides[0], *intervals)
	if err != nil {
		return err
	}
	new, err := loadSide(sides[1], *intervals)
	if err != nil {
		return err
	}
	res := compare.Compare(old, new, compare.Options{Stores: linked.Catalog(), Alpha: *alpha, Threshold: th / 100,
		Correction: corr, RunAllowance: ra / 100})
	if res.Cells == 0 {
		return usagef("%s and %s have no cell in common (%d and %d cells): nothing to compare", sides[0], sides[1],
			len(res.OnlyOld), len(res.OnlyNew))
	}
	if err := res.Write(stdout, sides[0], sides[1]); err != nil {
		return err
	}
	if bad := res.Regressions(); len(bad) > 0 {
		return fmt.Errorf("%d figure(s) significantly worse by %s or more (%s over %d figures), first %s %s %+.1f%%",
			len(bad), *threshold, corr, len(res.Rows), bad[0].Cell, bad[0].Metric, 100*bad[0].Delta)
	}
	return nil
}

// loadSide reads one side of a comparison: one results folder, or several separated
// by commas whose same-named cells count as repeats; with intervals > 0 each cell's
// intervals are merged into that many.
func loadSide(arg string, intervals int) ([]*resultsdir.Run, error) {
	var runs []*resultsdir.Run
	seen := map[string]bool{}
	for _, dir := range strings.Split(arg, ",") {
		if dir == "" {
			continue
		}
		if seen[filepath.Clean(dir)] { // its cells would count twice as repeats
			return nil, usagef("%q names the folder %s twice", arg, dir)
		}
		seen[filepath.Clean(dir)] = true
		run, err := report.Load(dir)
		if err != nil {
			return nil, usageError{err.Error()} // every load failure is a bad folder named on the command line
		}
		if intervals > 0 {
			if err := compare.Regroup(dir, run, intervals); err != nil {
				return nil, usagef("--intervals %d: %v", intervals, err)
			}
		}
		runs = append(runs, run)
	}
	if len(runs) == 0 {
		return nil, usagef("%q names no results folder", arg)
	}
	return runs, nil
}
