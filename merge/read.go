package merge

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"

	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/sweep"
)

// worker is one worker's folder, read.
type worker struct {
	dir    string
	run    *resultsdir.Run
	tag    resultsdir.WorkerTag
	config sweep.Config
	yaml   []byte // config.yaml as written, for the merged folder
}

// readWorkers reads every folder and refuses, naming the folders, a set that is not
// each worker of one complete run exactly once; the result is in worker order.
func readWorkers(dirs []string) ([]worker, error) {
	if len(dirs) == 0 {
		return nil, refuse("no worker folders given")
	}
	var ws []worker
	for _, dir := range dirs {
		run, err := resultsdir.ReadRun(dir)
		if err != nil {
			return nil, InputError{err}
		}
		if run.Worker == nil {
			return nil, refuse("%s: not a worker's folder (its run has no worker tag: was it run with --worker I/N?)", dir)
		}
		if !run.Complete {
			return nil,
				refuse("%s: worker %d/%d's run is incomplete (%d cells measured); finish it with --resume first", dir,
					run.Worker.Index, run.Worker.Of, len(run.Cells))
		}
		cfg, err := sweep.ReadConfig(dir)
		if err != nil {
			return nil, InputError{err}
		}
		data, err := os.ReadFile(filepath.Join(dir, resultsdir.ConfigFile))
		if err != nil {
			return nil, err
		}
		ws = append(ws, worker{dir: dir, run: run, tag: *run.Worker, config: cfg, yaml: data})
	}
	first := ws[0]
	for _, w := range ws[1:] {
		switch {
		case w.tag.RunID != first.tag.RunID:
			return nil,
				refuse("%s: run id %q, but %s has run id %q: folders of different runs", w.dir, w.tag.RunID, first.dir,
					first.tag.RunID)
		case w.tag.Of != first.tag.Of:
			return nil, refuse("%s: worker %d of %d, but %s is one of %d", w.dir, w.tag.Index, w.tag.Of, first.dir, first.tag.Of)
		case !reflect.DeepEqual(w.config, first.config):
			return nil,
				refuse("%s: its config.yaml differs from %s's: the workers did not run the same matrix", w.dir, first.dir)
		}
	}
	missing, err := oncePerWorker(first.tag.Of, len(ws), func(k int) (int, string) { return ws[k].tag.Index, ws[k].dir })
	if err != nil {
		return nil, err
	}
	if len(missing) > 0 {
		return nil,
			refuse("run %q: worker(s) %v of %d missing (given %d folders)", first.tag.RunID, missing, first.tag.Of, len(ws))
	}
	sort.Slice(ws, func(i, j int) bool { return ws[i].tag.Index < ws[j].tag.Index })
	return ws, nil
}

// cellOf finds a worker's share of the cell of name and repeat: measured, skipped as
// empty, or missing.
func (w worker) cellOf(name string, repeat int) (cell *resultsdir.Cell, skipped bool) {
	for i, c := range w.run.Cells {
		if c.Name == name && c.Repeat == repeat {
			return &w.run.Cells[i], false
		}
	}
	for _, s := range w.run.Skipped {
		if s.Name == name && s.Repeat == repeat {
			return nil, true
		}
	}
	return nil, false
}

// String names a worker for messages: worker 1/3 (dir).
func (w worker) String() string {
	return fmt.Sprintf("worker %d/%d (%s)", w.tag.Index, w.tag.Of, w.dir)
}
