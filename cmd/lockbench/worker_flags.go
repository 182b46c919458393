package main

import (
	"flag"
	"strconv"
	"strings"
	"time"

	"github.com/lockbench/lockbench/internal/flagrecord"
	"github.com/lockbench/lockbench/sweep"
)

// workerFlags are the command line of one worker of a run spread over load hosts.
type workerFlags struct {
	worker, startAt string
	cellGap, wait   string
}

func (f *workerFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.worker, "worker", "", "run only share I of N (0-based) of every cell, e.g. --worker \"$INDEX/3\"; "+
		"needs --run-id, the same on every worker")
	fs.StringVar(&f.startAt, "start-at", "", "workers: RFC3339 time the first cell starts; each later cell after the "+
		"warm-up, duration and --cell-gap of those before (default: agree each cell's start on the target)")
	fs.StringVar(&f.cellGap, "cell-gap", sweep.DefaultCellGap.String(),
		"workers with --start-at: time between one cell's end and the next one's start, for opening connections")
	fs.StringVar(&f.wait, "rendezvous-timeout", sweep.DefaultRendezvousWait.String(),
		"workers without --start-at: how long to wait at each cell for the other workers")
}

// resolve returns the worker asked for (nil: the whole run); givenRunID is the run id
// the user gave (--run-id or run_id: in the config), checked already.
func (f *workerFlags) resolve(fs *flag.FlagSet, cfg *sweep.Config, givenRunID string) (*sweep.Worker, error) {
	if !flagrecord.Given(fs, "worker") {
		for _, name := range []string{"start-at", "cell-gap", "rendezvous-timeout"} {
			if flagrecord.Given(fs, name) {
				return nil, usagef("--%s: only a worker (--worker I/N) has a start to agree", name)
			}
		}
		return nil, nil
	}
	index, of, err := parseWorker(f.worker)
	if err != nil {
		return nil, err
	}
	if givenRunID == "" {
		return nil,
			usagef("--worker %s needs --run-id: the workers' shared keys and start agreement are named by it", f.worker)
	}
	w := &sweep.Worker{Index: index, Of: of}
	if f.startAt != "" {
		if w.StartAt, err = time.Parse(time.RFC3339Nano, f.startAt); err != nil {
			return nil, usagef("--start-at %q: want an RFC3339 time like 2026-01-02T15:04:05Z", f.startAt)
		}
	}
	if w.CellGap, err = positiveDuration("cell-gap", f.cellGap, true); err != nil {
		return nil, err
	}
	if w.Wait, err = positiveDuration("rendezvous-timeout", f.wait, false); err != nil {
		return nil, err
	}
	for _, s := range cfg.Sweeps {
		if s.Workload == sweep.WorkloadUpdate {
			return nil, usagef("--worker: the update workload cannot be split over workers yet")
		}
	}
	if err := checkWorkerProvider(cfg.Provider); err != nil {
		return nil, err
	}
	return w, nil
}

// parseWorker reads I/N with 0 <= I < N.
func parseWorker(v string) (index, of int, err error) {
	is, ns, ok := strings.Cut(strings.TrimSpace(v), "/")
	index, ierr := strconv.Atoi(is)
	of, nerr := strconv.Atoi(ns)
	switch {
	case !ok || ierr != nil || nerr != nil:
		return 0, 0, usagef("--worker %q: want I/N, this worker's index from 0 and the number of workers, e.g. 1/3", v)
	case of < 1:
		return 0, 0, usagef("--worker %s: want at least 1 worker", v)
	case index < 0 || index >= of:
		return 0, 0, usagef("--worker %s: the index counts from 0 and must be below %d", v, of)
	}
	return index, of, nil
}

func positiveDuration(name, v string, zeroOK bool) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 || (d == 0 && !zeroOK) {
		return 0, usagef("--%s %q: want a positive duration like 10s", name, v)
	}
	return d, nil
}

// workerProvider is the one provider whose workers target the same servers; the
// others start servers of their own in every worker.
const workerProvider = "external"

// checkWorkerProvider refuses --worker with a provider that starts servers.
func checkWorkerProvider(provider string) error {
	if provider != workerProvider {
		return usagef("--worker: the workers must target one deployment: give --provider %s --deployment FILE (provider %q "+
			"would start servers of its own in each worker)", workerProvider, provider)
	}
	return nil
}
