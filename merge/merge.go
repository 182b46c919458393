// Package merge adds up the folders the workers of one run wrote (`run --worker I/N`)
// into one ordinary results folder: counts are summed and latency histograms added
// exactly, interval by interval; no percentile is ever averaged.
package merge

import (
	"errors"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/resultsdir"
)

// DefaultMaxSkew is how far the workers' starts or clock offsets may disagree before
// the merge warns.
const DefaultMaxSkew = 10 * time.Millisecond

// Options are how a merge judges and labels its input.
type Options struct {
	MaxSkew     time.Duration // 0: DefaultMaxSkew
	CommandLine []string      // recorded as the merged run's command line
}

// InputError is a set of folders that cannot be merged: not workers' folders, or not
// the workers of one complete run.
type InputError struct{ Err error }

func (e InputError) Error() string { return e.Err.Error() }
func (e InputError) Unwrap() error { return e.Err }

func refuse(format string, args ...any) error { return InputError{fmt.Errorf(format, args...)} }

// Result is the merged run and the warnings it carries in its notes.
type Result struct {
	Run      *resultsdir.Run
	Warnings []string
}

// Merge reads the workers' folders dirs, checks that they are every worker of one
// complete run, and writes their sum into out (which must not exist or be empty).
// Nothing is written when the input is refused.
func Merge(out string, dirs []string, opts Options) (Result, error) {
	if opts.MaxSkew <= 0 {
		opts.MaxSkew = DefaultMaxSkew
	}
	ws, err := readWorkers(dirs)
	if err != nil {
		return Result{}, err
	}
	merged, err := mergeRun(ws, opts)
	if err != nil {
		return Result{}, err
	}
	if err := merged.write(out); err != nil {
		var bad InputError
		if errors.As(err, &bad) {
			return Result{}, err
		}
		return Result{}, fmt.Errorf("write %s: %w", out, err)
	}
	return Result{Run: merged.run, Warnings: merged.warnings}, nil
}

// oncePerWorker checks that n folders, the k-th of which at gives its worker index and
// folder, hold no worker twice; it returns the indexes below of that none holds.
func oncePerWorker(of, n int, at func(k int) (index int, dir string)) ([]int, error) {
	byIndex := map[int]string{}
	for k := range n {
		i, dir := at(k)
		if other, dup := byIndex[i]; dup {
			return nil, refuse("worker %d/%d given twice: %s and %s", i, of, other, dir)
		}
		byIndex[i] = dir
	}
	var missing []int
	for i := range of {
		if _, ok := byIndex[i]; !ok {
			missing = append(missing, i)
		}
	}
	return missing, nil
}
