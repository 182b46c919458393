package adr

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lockbench/lockbench/report"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/safety/results"
)

// Inputs are the results folders an ADR is computed from.
type Inputs struct {
	BenchDirs  []string
	Runs       []*resultsdir.Run
	SafetyDirs []string
	Safety     []*results.Report
	// SafetyFrom is the folder each report of Safety was read from.
	SafetyFrom []string
	// SafetyCommands are what each safety folder's run was asked (nil if unrecorded).
	SafetyCommands []*results.Command
}

// InputError is a results folder that cannot be read as either kind.
type InputError struct{ Err error }

func (e InputError) Error() string { return e.Err.Error() }
func (e InputError) Unwrap() error { return e.Err }

// LoadInputs reads each folder as a `lockbench run` folder (results.json with cells)
// or a `lockbench safety` folder (results.json with reports), whichever it is.
func LoadInputs(dirs []string) (*Inputs, error) {
	in := &Inputs{}
	for _, dir := range dirs {
		b, err := os.ReadFile(filepath.Join(dir, resultsdir.JSONFile))
		if err != nil {
			return nil, InputError{fmt.Errorf("%s: %w", dir, resultsdir.ErrNotResultsFolder)}
		}
		var shape struct {
			Cells   json.RawMessage `json:"cells"`
			Reports json.RawMessage `json:"reports"`
		}
		if err := json.Unmarshal(b, &shape); err != nil {
			return nil, InputError{fmt.Errorf("%s: %w", filepath.Join(dir, resultsdir.JSONFile), err)}
		}
		switch {
		case shape.Reports != nil:
			res, err := results.Read(dir)
			if err != nil {
				return nil, InputError{err}
			}
			in.SafetyDirs = append(in.SafetyDirs, dir)
			in.Safety = append(in.Safety, res.Reports...)
			for range res.Reports {
				in.SafetyFrom = append(in.SafetyFrom, dir)
			}
			in.SafetyCommands = append(in.SafetyCommands, res.Command)
		case shape.Cells != nil:
			run, err := report.Load(dir)
			if err != nil {
				return nil, InputError{err}
			}
			in.BenchDirs = append(in.BenchDirs, dir)
			in.Runs = append(in.Runs, run)
		default:
			return nil,
				InputError{fmt.Errorf("%s: neither cells (lockbench run) nor reports (lockbench safety)",
					filepath.Join(dir, resultsdir.JSONFile))}
		}
	}
	if len(in.Runs) == 0 && len(in.Safety) == 0 {
		return nil, InputError{fmt.Errorf("no results folder given")}
	}
	return in, nil
}

// merged is every benchmark cell in one run, for the capacity answer; the first run's
// environment stands for all of them, with every run's topologies.
func (in *Inputs) merged() *resultsdir.Run {
	out := &resultsdir.Run{}
	out.Environment.Topologies = map[string]string{}
	for i, r := range in.Runs {
		if i == 0 {
			env := r.Environment
			env.Topologies = out.Environment.Topologies
			out.Environment = env
		}
		for s, t := range r.Environment.Topologies {
			if _, ok := out.Environment.Topologies[s]; !ok {
				out.Environment.Topologies[s] = t
			}
		}
		out.Cells = append(out.Cells, r.Cells...)
	}
	return out
}
