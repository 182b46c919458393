package merge

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/resultsdir/samerun"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
)

// SafetyOptions are how a safety merge labels and draws its output.
type SafetyOptions struct {
	CommandLine []string // recorded as the merged campaign's command line
	// Draw draws the merged reports' figures into out (nil: none); the command hands it
	// in, as `lockbench safety` does, so that this package need not import the plots.
	Draw func(out string, reports []*results.Report) ([]results.FigureRef, error)
}

// SafetyResult is the merged campaign and what the merge could not carry over.
type SafetyResult struct {
	Results  results.Results
	Warnings []string
}

// IsSafetyFolder says whether dir holds the results.json of `lockbench safety` (a
// command with scenarios), not a `lockbench run` folder.
func IsSafetyFolder(dir string) bool {
	res, err := results.Read(dir)
	return err == nil && res.Command != nil && len(res.Command.Scenarios) > 0
}

// shard is one worker's safety folder, read.
type shard struct {
	dir string
	res results.Results
	cmd results.Command // the campaign's: the command without the worker
	of  results.Worker
}

func (s shard) String() string { return fmt.Sprintf("worker %d/%d (%s)", s.of.Index, s.of.Of, s.dir) }

// MergeSafety reads the folders of a safety campaign's workers (`lockbench safety
// --worker I/N`), checks that they are each worker of one campaign exactly once, run
// by one program, and writes into out (which must not exist or be empty) the folder
// the whole campaign would have written: every trial kept as its worker recorded it,
// tallies, intervals, claims and results.md recomputed from the union. Nothing is
// written when the input is refused.
func MergeSafety(out string, dirs []string, opts SafetyOptions) (SafetyResult, error) {
	shards, err := readShards(dirs)
	if err != nil {
		return SafetyResult{}, err
	}
	var warnings []string
	var reports []*results.Report
	for _, name := range shards[0].cmd.Scenarios {
		rep, warn, err := mergeScenario(shards, name)
		if err != nil {
			return SafetyResult{}, err
		}
		warnings = append(warnings, warn...)
		if rep != nil {
			reports = append(reports, rep)
		}
	}
	first := shards[0]
	env := *first.res.Environment
	env.CommandLine = opts.CommandLine
	cmd := first.cmd
	merged := results.Results{Complete: true, Command: &cmd, Environment: &env, Reports: reports}
	for _, s := range shards {
		merged.MergedFrom = append(merged.MergedFrom, s.dir)
	}
	if err := writeSafety(out, shards, &merged, opts.Draw); err != nil {
		var bad InputError
		if errors.As(err, &bad) {
			return SafetyResult{}, err
		}
		return SafetyResult{}, fmt.Errorf("write %s: %w", out, err)
	}
	return SafetyResult{Results: merged, Warnings: warnings}, nil
}

// readShards reads every folder and refuses, naming the folders and the first
// difference, a set that is not each worker of one complete campaign run by one
// program exactly once; the result is in worker order.
func readShards(dirs []string) ([]shard, error) {
	if len(dirs) == 0 {
		return nil, refuse("no worker folders given")
	}
	var shards []shard
	for _, dir := range dirs {
		res, err := results.Read(dir)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, refuse("%s: holds no results.json: not a results folder", dir)
		case err != nil:
			return nil, InputError{err}
		case res.Command == nil || len(res.Command.Scenarios) == 0 || res.Environment == nil:
			return nil, refuse("%s: not the folder of a `lockbench safety` run (its results.json records no safety command); "+
				"merge safety folders with safety folders", dir)
		case res.Command.Worker == nil:
			return nil, refuse(
				"%s: not a worker's folder (its command has no worker: was it run with lockbench safety --worker I/N?)", dir)
		case !res.Complete:
			return nil,
				refuse("%s: worker %d/%d's run is incomplete; finish it with lockbench safety --resume %s first", dir,
					res.Command.Worker.Index, res.Command.Worker.Of, dir)
		}
		cmd := *res.Command
		cmd.Worker = nil
		shards = append(shards, shard{dir: dir, res: res, cmd: cmd, of: *res.Command.Worker})
	}
	first := shards[0]
	for _, s := range shards[1:] {
		if s.of.Of != first.of.Of {
			return nil, refuse("%s: worker %d of %d, but %s is one of %d", s.dir, s.of.Index, s.of.Of, first.dir, first.of.Of)
		}
		if d, ok := samerun.First(s.cmd, first.cmd); ok {
			return nil, refuse("%s is not the campaign of %s: its command's %s", s.dir, first.dir, d)
		}
		if d, ok := samerun.First(s.res.Environment.Software(), first.res.Environment.Software()); ok {
			return nil, refuse("%s was run by other software than %s: %s", s.dir, first.dir, d)
		}
	}
	missing,
		err := oncePerWorker(first.of.Of, len(shards), func(k int) (int, string) { return shards[k].of.Index, shards[k].dir })
	if err != nil {
		return nil, err
	}
	if len(missing) > 0 {
		return nil, refuse("worker(s) %v of %d missing (given %d folders)", missing, first.of.Of, len(shards))
	}
	slices.SortFunc(shards, func(a, b shard) int { return a.of.Index - b.of.Index })
	return shards, nil
}

// reportOf is a shard's report of scenario, or nil.
func (s shard) reportOf(scenario string) *results.Report {
	for _, r := range s.res.Reports {
		if r.Scenario == scenario {
			return r
		}
	}
	return nil
}

// mergeScenario adds up the shards' reports of one scenario; nil when no shard ran it
// (all of them skipped it, as --all skips a scenario no provider could cut links for).
func mergeScenario(shards []shard, scenario string) (*results.Report, []string, error) {
	var reps []*results.Report
	var with, without []string
	for _, s := range shards {
		if r := s.reportOf(scenario); r != nil {
			reps = append(reps, r)
			with = append(with, s.dir)
		} else {
			without = append(without, s.dir)
		}
	}
	if len(reps) == 0 {
		return nil, nil, nil
	}
	if len(without) > 0 {
		return nil, nil,
			refuse("scenario %s: reported by %s, missing from %s", scenario, strings.Join(with, ", "),
				strings.Join(without, ", "))
	}
	first := reps[0]
	for i, r := range reps[1:] {
		a, b := reportHeader(r), reportHeader(first)
		if d, ok := samerun.First(a, b); ok {
			return nil, nil,
				refuse("scenario %s: %s's report differs from %s's: %s", scenario, shards[i+1].dir, shards[0].dir, d)
		}
	}
	for i, r := range reps {
		if len(r.Variants) != len(first.Variants) {
			return nil, nil,
				refuse("scenario %s: %s has %d variants, %s has %d", scenario, shards[i].dir, len(r.Variants), shards[0].dir,
					len(first.Variants))
		}
		if bin := shards[i].res.Environment.Binary; r.Binary != bin {
			return nil, nil,
				refuse("scenario %s in %s: written by binary %q, the folder's run is %q", scenario, shards[i].dir, r.Binary, bin)
		}
	}
	merged := reportHeader(first)
	merged.Complete = true
	seconds := 0.0
	var warnings []string
	for _, r := range reps {
		seconds = max(seconds, r.Seconds)
		if len(r.Series) > 0 && len(warnings) == 0 {
			warnings = append(warnings, fmt.Sprintf("scenario %s: its series (the figures' lines) are made by the scenario "+
				"from its variants and are not recomputed by merge: the merged folder has none; each worker's folder has its "+
				"share's", scenario))
		}
	}
	for _, v := range first.Variants {
		mv, err := mergeVariant(shards, reps, first, v.Name)
		if err != nil {
			return nil, nil, err
		}
		merged.Variants = append(merged.Variants, mv)
	}
	// The workers ran at once, each on its own servers: the campaign took the longest.
	merged.Finish(seconds)
	return merged, warnings, nil
}

// reportHeader is r without what its trials made: what every shard's report of one
// scenario must share.
func reportHeader(r *results.Report) *results.Report {
	return &results.Report{Scenario: r.Scenario, Summary: r.Summary, Seed: r.Seed, TrialsPerVariant: r.TrialsPerVariant,
		Params: r.Params, Provider: r.Provider, Binary: r.Binary}
}

// variantHeader is v without its trials and what they made: what every shard's
// variant of one name must share.
func variantHeader(v *results.Variant) *results.Variant {
	return &results.Variant{Name: v.Name, Description: v.Description, Params: v.Params, Measure: v.Measure,
		Claims: v.Claims, WindowIs: v.WindowIs, Stopping: v.Stopping}
}

// mergeVariant puts the shards' trials of variant name together in trial order,
// checking that each is its worker's, carries the seed the campaign gives it, and that
// together they are every trial of the campaign exactly once.
func mergeVariant(shards []shard, reps []*results.Report, first *results.Report, name string) (*results.Variant,
	error) {
	head := variantHeader(first.Variant(name))
	merged := variantHeader(first.Variant(name))
	env := lab.Env{Seed: first.Seed}
	owner := map[int]string{}
	var trials []results.Trial
	var otherNotes []string
	for i, r := range reps {
		s := shards[i]
		v := r.Variant(name)
		if v == nil {
			return nil, refuse("scenario %s: variant %s is in %s, not in %s", first.Scenario, name, shards[0].dir, s.dir)
		}
		if d, ok := samerun.First(variantHeader(v), head); ok {
			return nil, refuse("scenario %s variant %s: %s differs from %s: %s", first.Scenario, name, s.dir, shards[0].dir, d)
		}
		for _, t := range v.Trials {
			where := fmt.Sprintf("scenario %s variant %s trial %d in %s", first.Scenario, name, t.N, s.dir)
			switch {
			case t.N < 0 || t.N >= first.TrialsPerVariant:
				return nil, refuse("%s: outside the campaign's %d trials", where, first.TrialsPerVariant)
			case t.N%s.of.Of != s.of.Index:
				return nil, refuse("%s: trial %d is worker %d's, not worker %d's", where, t.N, t.N%s.of.Of, s.of.Index)
			case owner[t.N] != "":
				return nil, refuse("%s: trial %d is in %s too", where, t.N, owner[t.N])
			case t.Seed != env.TrialSeed(name, t.N):
				return nil,
					refuse("%s: seed %d, but the campaign's seed %d gives trial %d seed %d", where, t.Seed, first.Seed, t.N,
						env.TrialSeed(name, t.N))
			}
			owner[t.N] = s.dir
			trials = append(trials, t)
		}
		for _, n := range v.Notes {
			if !isTrialNote(n) && !slices.Contains(otherNotes, n) {
				otherNotes = append(otherNotes, n)
			}
		}
		for _, page := range v.Visualizations {
			merged.Visualizations = append(merged.Visualizations, page) // rewritten when copied
		}
	}
	if len(trials) > 0 && len(trials) != first.TrialsPerVariant {
		var missing []string
		for n := range first.TrialsPerVariant {
			if owner[n] == "" {
				missing = append(missing, fmt.Sprintf("%d (worker %d's)", n, n%shards[0].of.Of))
			}
		}
		shown := missing[:min(len(missing), 10)] // enough to find the worker
		return nil,
			refuse("scenario %s variant %s: %d trial(s) missing from the workers' folders: %s", first.Scenario, name,
				len(missing), strings.Join(shown, ", "))
	}
	slices.SortFunc(trials, func(a, b results.Trial) int { return a.N - b.N })
	slices.Sort(merged.Visualizations) // named by trial: in trial order, as one run adds them
	// As the whole run would have: trials in order, the notes the unjudged ones leave,
	// then the scenario's own notes.
	for _, t := range trials {
		merged.Add(t)
		if t.Outcome != results.Judged {
			merged.Note(fmt.Sprintf("trial %d: %s: %s", t.N, t.Outcome, t.Message))
		}
	}
	for _, n := range otherNotes {
		merged.Note(n)
	}
	return merged, nil
}

// isTrialNote says whether a note is the one an unjudged trial leaves (lab's record):
// the merge writes those again from the union.
func isTrialNote(n string) bool {
	var num int
	var rest string
	k, _ := fmt.Sscanf(n, "trial %d: %s", &num, &rest)
	return k == 2
}

// writeSafety puts the merged folder in out: the porcupine pages, the figures, then
// results.json and results.md last.
func writeSafety(out string, shards []shard, merged *results.Results,
	draw func(string, []*results.Report) ([]results.FigureRef, error)) error {
	if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
		return refuse("--out %s: folder exists and is not empty; refusing to mix runs", out)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, r := range merged.Reports {
		for _, v := range r.Variants {
			for i, page := range v.Visualizations {
				copied, err := copyPage(out, shards, page)
				if err != nil {
					return err
				}
				v.Visualizations[i] = copied
			}
		}
	}
	if draw != nil {
		figs, err := draw(out, merged.Reports)
		if err != nil {
			return fmt.Errorf("figures: %w", err)
		}
		merged.Figures = figs
	}
	return results.Write(out, *merged)
}

// copyPage copies a worker's porcupine page into out/viz, found where the worker wrote
// it or, the folder moved since, under that folder's viz/.
func copyPage(out string, shards []shard, page string) (string, error) {
	name := filepath.Base(page)
	data, err := os.ReadFile(page)
	for _, s := range shards {
		if err == nil {
			break
		}
		data, err = os.ReadFile(filepath.Join(s.dir, "viz", name))
	}
	if err != nil {
		return "", refuse("porcupine page %s: not found where it was written nor in any worker's viz/: %v", page, err)
	}
	if err := os.MkdirAll(filepath.Join(out, "viz"), 0o755); err != nil {
		return "", err
	}
	dst := filepath.Join(out, "viz", name)
	return dst, resultsdir.WriteFileAtomic(dst, data)
}
