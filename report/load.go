// Package report writes report.md into a results folder: what was measured and on
// what, a table per condition, the figures, the cost of each step up in safety and,
// when asked, the capacity that kept a latency budget. It formats; it never measures,
// and it draws no figure: they are drawn first, from the same Input, and named to it.
package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/stats"
)

// Load reads a results folder and every histogram log it names, so that a corrupt or
// missing file is reported, by name, before anything is written.
func Load(dir string) (*resultsdir.Run, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, resultsdir.ErrNotResultsFolder)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s: %w (a file, not a folder)", dir, resultsdir.ErrNotResultsFolder)
	}
	run, err := resultsdir.ReadRun(dir)
	if err != nil {
		return nil, err
	}
	if len(run.Cells) == 0 {
		return nil, fmt.Errorf("%s: no cells: nothing was measured", filepath.Join(dir, resultsdir.JSONFile))
	}
	for _, c := range run.Cells {
		if c.Name == "" || c.Strategy == "" {
			return nil, fmt.Errorf("%s: a cell without name or strategy", filepath.Join(dir, resultsdir.JSONFile))
		}
		for _, metric := range resultsdir.Metrics {
			rel, ok := c.Histograms[metric]
			if !ok {
				continue
			}
			if filepath.IsAbs(rel) || strings.HasPrefix(filepath.Clean(rel), "..") {
				return nil,
					fmt.Errorf("%s: cell %s: histogram path %q leaves the results folder", filepath.Join(dir, resultsdir.JSONFile),
						c.Name, rel)
			}
			if _, err := resultsdir.ReadHistogram(dir, rel); err != nil {
				return nil, err
			}
		}
	}
	return run, nil
}

// Only keeps the cells of the named strategies; naming one the run lacks is an error
// that lists those it has.
func Only(stores *backend.Catalog, run *resultsdir.Run, strategies []string) (*resultsdir.Run, error) {
	if len(strategies) == 0 {
		return run, nil
	}
	has := map[string]bool{}
	for _, c := range run.Cells {
		has[c.Strategy] = true
	}
	want := map[string]bool{}
	for _, s := range strategies {
		if !has[s] {
			var names []string
			for n := range has {
				names = append(names, n)
			}
			stats.SortStrategies(stores, names)
			return nil, fmt.Errorf("strategy %q is not in this run (it has %s)", s, strings.Join(names, ", "))
		}
		want[s] = true
	}
	out := *run
	out.Cells = nil
	for _, c := range run.Cells {
		if want[c.Strategy] {
			out.Cells = append(out.Cells, c)
		}
	}
	return &out, nil
}
