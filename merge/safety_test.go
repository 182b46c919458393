package merge_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/merge"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
)

const campaignTrials = 5

// safetyShard is worker index of of's folder of a one-scenario campaign of
// campaignTrials trials per variant at seed 3: its trials n % of == index, each with
// the campaign's seed for it, odd ones judged broken, 3 fault_not_produced; edit
// changes the results before they are written.
func safetyShard(t *testing.T, index, of int, edit func(*results.Results)) string {
	t.Helper()
	dir := t.TempDir()
	env := lab.Env{Seed: 3}
	cmd := results.Command{Scenarios: []string{"s"}, Trials: campaignTrials, Seed: 3, Params: map[string]string{"ttl": "1s"}, Worker: &results.Worker{Index: index, Of: of}}
	software := resultsdir.Environment{GoVersion: "go1.x", RedisServer: "7.2.4", Binary: "sha256:aaa"}
	rep := &results.Report{Scenario: "s", Summary: "a scenario", Seed: 3, TrialsPerVariant: campaignTrials, Params: cmd.Params, Binary: software.Binary, Complete: true}
	for _, name := range []string{"first", "second"} {
		v := &results.Variant{Name: name, Description: "variant " + name, Measure: results.Violations,
			Claims: []results.Claim{results.Holds(results.Violations)}}
		for n := index; n < campaignTrials; n += of {
			tr := results.Trial{N: n, Seed: env.TrialSeed(name, n), Outcome: results.Judged, Proof: []string{"seen"}, Seconds: float64(n),
				Counts: map[results.Measure]int{results.Violations: n % 2}, Inputs: map[string]float64{"draw": float64(10 * n)}}
			if n == 3 {
				tr.Outcome, tr.Counts, tr.Message = results.FaultNotProduced, nil, "no promotion"
				v.Note("trial 3: fault_not_produced: no promotion")
			}
			v.Add(tr)
		}
		v.Note("deployment re-formed once")
		rep.Variants = append(rep.Variants, v)
	}
	rep.Finish(float64(10 + index))
	res := results.Results{Complete: true, Command: &cmd, Environment: &software, Reports: []*results.Report{rep}}
	if edit != nil {
		edit(&res)
	}
	if err := results.Write(dir, res); err != nil {
		t.Fatal(err)
	}
	return dir
}

func shards(t *testing.T, of int) []string {
	var dirs []string
	for i := range of {
		dirs = append(dirs, safetyShard(t, i, of, nil))
	}
	return dirs
}

// Three shards merge into the whole campaign: every trial once, in order, as its
// worker recorded it; tallies and intervals recomputed from the union; notes as one
// run leaves them.
func TestMergeSafetyPutsTheShardsTrialsTogether(t *testing.T) {
	dirs := shards(t, 3)
	if !merge.IsSafetyFolder(dirs[0]) {
		t.Fatalf("%s not seen as a safety folder", dirs[0])
	}
	out := filepath.Join(t.TempDir(), "merged")
	got, err := merge.MergeSafety(out, dirs, merge.SafetyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	back, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Complete || back.Command.Worker != nil || len(back.MergedFrom) != 3 || len(got.Results.Reports) != 1 {
		t.Fatalf("merged: complete %v worker %v merged_from %v", back.Complete, back.Command.Worker, back.MergedFrom)
	}
	rep := back.Reports[0]
	if rep.Seconds != 12 || rep.TrialsPerVariant != campaignTrials {
		t.Errorf("report seconds %v (want the longest worker's, 12), trials per variant %d", rep.Seconds, rep.TrialsPerVariant)
	}
	env := lab.Env{Seed: 3}
	for _, v := range rep.Variants {
		if len(v.Trials) != campaignTrials {
			t.Fatalf("%s: %d trials, want %d", v.Name, len(v.Trials), campaignTrials)
		}
		for n, tr := range v.Trials {
			if tr.N != n || tr.Seed != env.TrialSeed(v.Name, n) || tr.Inputs["draw"] != float64(10*n) || tr.Seconds != float64(n) {
				t.Errorf("%s position %d: trial %d seed %d draw %v seconds %v", v.Name, n, tr.N, tr.Seed, tr.Inputs["draw"], tr.Seconds)
			}
		}
		// Judged: 0, 1, 2, 4; broken: 1. Fault not produced: 3.
		want := results.TallyOf(results.Violations, v.Trials)
		if v.Tally.Judged != 4 || v.Tally.FaultNotProduced != 1 || v.Tally.Headline != results.ProportionOf(1, 4) || v.Tally.Anytime != results.SequenceOf(1, 4) || v.Tally.Headline != want.Headline {
			t.Errorf("%s tally %+v, want 1 of 4 judged and 1 fault not produced", v.Name, v.Tally)
		}
		wantNotes := []string{"trial 3: fault_not_produced: no promotion", "deployment re-formed once"}
		if strings.Join(v.Notes, "|") != strings.Join(wantNotes, "|") {
			t.Errorf("%s notes %q, want %q", v.Name, v.Notes, wantNotes)
		}
	}
	md, err := os.ReadFile(filepath.Join(out, "results.md"))
	if err != nil || !strings.Contains(string(md), "Merged by `lockbench merge` from 3 workers' folders") || !strings.Contains(string(md), "1 of 4 judged") {
		t.Errorf("results.md (%v) lacks the merge line or the union's count:\n%s", err, md)
	}
	// The merged folder is no worker's: it cannot be merged again.
	if _, err := merge.MergeSafety(filepath.Join(t.TempDir(), "again"), []string{out}, merge.SafetyOptions{}); err == nil || !strings.Contains(err.Error(), "not a worker's folder") {
		t.Errorf("merging a merged folder: %v", err)
	}
}

// Folders that are not each worker of one campaign, run by one program, exactly once
// are refused, naming the difference, and nothing is written.
func TestMergeSafetyRefusesMixedOrIncompleteShards(t *testing.T) {
	edit := func(f func(*results.Results)) func(t *testing.T) []string {
		return func(t *testing.T) []string {
			return []string{safetyShard(t, 0, 2, nil), safetyShard(t, 1, 2, f)}
		}
	}
	runFolder := func(t *testing.T) string {
		dir := t.TempDir()
		if err := resultsdir.WriteRun(dir, &resultsdir.Run{Complete: true}); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	firstVariant := func(r *results.Results) *results.Variant { return r.Reports[0].Variants[0] }
	cases := []struct {
		name  string
		dirs  func(t *testing.T) []string
		names string
	}{
		{"another seed", edit(func(r *results.Results) { r.Command.Seed = 4 }), "seed is 4 here, 3 there"},
		{"another trial count", edit(func(r *results.Results) { r.Command.Trials = 6 }), "trials is 6 here, 5 there"},
		{"another param", edit(func(r *results.Results) { r.Command.Params = map[string]string{"ttl": "2s"} }), `params[ttl] is "2s" here, "1s" there`},
		{"another scenario", edit(func(r *results.Results) { r.Command.Scenarios = []string{"t"} }), "scenarios"},
		{"another binary", edit(func(r *results.Results) { r.Environment.Binary = "sha256:bbb"; r.Reports[0].Binary = "sha256:bbb" }), "binary"},
		{"another redis-server", edit(func(r *results.Results) { r.Environment.RedisServer = "7.0.0" }), "redis_server"},
		{"another worker count", edit(func(r *results.Results) { r.Command.Worker.Of = 3 }), "worker 1 of 3"},
		{"a report of another program", edit(func(r *results.Results) { r.Reports[0].Binary = "sha256:ccc" }), `binary is "sha256:ccc" here`},
		{"another variant description", edit(func(r *results.Results) { firstVariant(r).Description = "changed" }), "description"},
		{"a variant missing", edit(func(r *results.Results) { r.Reports[0].Variants = r.Reports[0].Variants[:1] }), "1 variants"},
		{"a scenario missing", edit(func(r *results.Results) { r.Reports = nil }), "missing from"},
		{"incomplete", edit(func(r *results.Results) { r.Complete = false }), "incomplete"},
		{"not a worker", edit(func(r *results.Results) { r.Command.Worker = nil }), "not a worker's folder"},
		{"a trial of the other worker", edit(func(r *results.Results) { firstVariant(r).Trials[0].N = 2 }), "trial 2 is worker 0's, not worker 1's"},
		{"a trial with another seed", edit(func(r *results.Results) { firstVariant(r).Trials[0].Seed++ }), "the campaign's seed 3 gives trial 1 seed"},
		{"a trial beyond the campaign", edit(func(r *results.Results) { firstVariant(r).Trials[0].N = 7 }), "outside the campaign's 5 trials"},
		{"a trial missing", edit(func(r *results.Results) { v := firstVariant(r); v.Trials = v.Trials[1:] }), "1 trial(s) missing from the workers' folders: 1 (worker 1's)"},
		{"the same worker twice", func(t *testing.T) []string { return []string{safetyShard(t, 0, 2, nil), safetyShard(t, 0, 2, nil)} }, "worker 0/2 given twice"},
		{"a worker missing", func(t *testing.T) []string { return []string{safetyShard(t, 0, 3, nil), safetyShard(t, 2, 3, nil)} }, "worker(s) [1] of 3 missing"},
		{"a run folder among them", func(t *testing.T) []string { return []string{safetyShard(t, 0, 2, nil), runFolder(t)} }, "not the folder of a `lockbench safety` run"},
		{"no folder", func(t *testing.T) []string { return []string{filepath.Join(t.TempDir(), "none")} }, "holds no results.json"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "merged")
			_, err := merge.MergeSafety(out, c.dirs(t), merge.SafetyOptions{})
			var bad merge.InputError
			if !errors.As(err, &bad) || !strings.Contains(err.Error(), c.names) {
				t.Fatalf("error %v (input error: %v), want one naming %q", err, errors.As(err, &bad), c.names)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("%s written after a refusal", out)
			}
		})
	}
}

// A merge into a folder that holds something is refused and leaves it as it was.
func TestMergeSafetyRefusesAFolderInUse(t *testing.T) {
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, "keep"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := merge.MergeSafety(out, shards(t, 2), merge.SafetyOptions{})
	if err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("merge into a used folder: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "results.json")); !os.IsNotExist(err) {
		t.Errorf("results.json written into a used folder")
	}
}
