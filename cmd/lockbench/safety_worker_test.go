package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies/testenv"
)

func TestSafetyWorkerBadInputExitsTwoAndWritesNothing(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--worker", "3/3"}, "--worker 3/3: the index counts from 0"},
		{[]string{"--worker", "-1/3"}, "--worker -1/3"},
		{[]string{"--worker", "0/0"}, "--worker 0/0: want at least 1 worker"},
		{[]string{"--worker", "x"}, `--worker "x": want I/N`},
		{[]string{"--worker", "1/2", "--until-width", "10%"}, "stopping by width cannot be split over workers"},
		{[]string{"--worker", "0/3", "--trials", "2"}, "fewer trials per variant than workers"},
	}
	for _, c := range cases {
		out := filepath.Join(t.TempDir(), "results")
		refusesBadInput(t, append([]string{"safety", "--scenario", "setnx-expire", "--out", out}, c.args...), out, c.want)
	}
}

// safetyCampaign runs `lockbench safety` of scenario as one run (of 0) or as workers
// 0..of-1, each starting its own servers, and returns the folders.
func safetyCampaign(t *testing.T, scenario string, trials, seed, of int, params ...string) []string {
	t.Helper()
	n := max(of, 1)
	var dirs []string
	for i := range n {
		out := filepath.Join(t.TempDir(), fmt.Sprintf("w%d", i))
		args := []string{"safety", "--scenario", scenario, "--trials", fmt.Sprint(trials), "--seed", fmt.Sprint(seed), "--out", out}
		if of > 0 {
			args = append(args, "--worker", fmt.Sprintf("%d/%d", i, of))
		}
		for _, p := range params {
			args = append(args, "--param", p)
		}
		var stdout, stderr bytes.Buffer
		if code := run(args, nil, &stdout, &stderr); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr.String())
		}
		dirs = append(dirs, out)
	}
	return dirs
}

// mergeCampaign runs `lockbench merge` on the workers' folders and reads the result.
func mergeCampaign(t *testing.T, dirs []string) (string, results.Results) {
	t.Helper()
	out := mergeWorkers(t, dirs)
	res, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	return out, res
}

func readResults(t *testing.T, dir string) results.Results {
	t.Helper()
	res, err := results.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Three workers of unsafe-release (forced interleavings: every trial's outcome and
// counts are the same in any run), merged, keep each worker's trial records as they
// were, and equal the one run with the same seed trial for trial (index, seed, draws,
// outcome, counts, proof and overlap count); the tallies' counts and intervals, the
// claims table, and a porcupine page for every trial that broke.
func TestSafetyThreeWorkersMergeEqualsOneRun(t *testing.T) {
	t.Parallel()
	testenv.RequireRedis(t)
	const trials, seed = 5, 11
	// B polls for the key for the TTL that A's pause outlasts: at the default 300 ms, at
	// load 40, one worker's B missed it and the trial's fault was not produced.
	const ttl = "ttl=1s"
	whole := readResults(t, safetyCampaign(t, "unsafe-release", trials, seed, 0, ttl)[0])
	workers := safetyCampaign(t, "unsafe-release", trials, seed, 3, ttl)
	for i, dir := range workers {
		res := readResults(t, dir)
		for _, v := range res.Reports[0].Variants {
			for _, tr := range v.Trials {
				if tr.N%3 != i {
					t.Errorf("worker %d/3 ran %s trial %d", i, v.Name, tr.N)
				}
			}
		}
	}
	out, merged := mergeCampaign(t, workers)
	shares := make([]results.Results, len(workers))
	for i, dir := range workers {
		shares[i] = readResults(t, dir)
	}
	if len(merged.Reports) != 1 || len(whole.Reports) != 1 {
		t.Fatalf("%d merged reports, %d whole", len(merged.Reports), len(whole.Reports))
	}
	w, m := whole.Reports[0], merged.Reports[0]
	if len(w.Variants) != len(m.Variants) {
		t.Fatalf("%d variants merged, %d in the one run", len(m.Variants), len(w.Variants))
	}
	broke := 0
	for i, wv := range w.Variants {
		mv := m.Variants[i]
		if mv.Name != wv.Name || len(mv.Trials) != trials || len(wv.Trials) != trials {
			t.Fatalf("variant %d: merged %s with %d trials, one run %s with %d", i, mv.Name, len(mv.Trials), wv.Name, len(wv.Trials))
		}
		for n := range wv.Trials {
			kept := shares[n%3].Reports[0].Variant(wv.Name).Trials[n/3]
			if !reflect.DeepEqual(mv.Trials[n], kept) {
				t.Errorf("%s trial %d: merged %+v, worker %d recorded %+v", wv.Name, n, mv.Trials[n], n%3, kept)
			}
		}
		broke += wv.Tally.Broke[results.Violations]
		if len(mv.Visualizations) != wv.Tally.Broke[results.Violations] {
			t.Errorf("%s: %d porcupine pages merged for %d broken trials", wv.Name, len(mv.Visualizations), wv.Tally.Broke[results.Violations])
		}
		for _, page := range mv.Visualizations {
			if !strings.HasPrefix(page, out) {
				t.Errorf("%s: page %s is not in the merged folder %s", wv.Name, page, out)
			}
			if _, err := os.Stat(page); err != nil {
				t.Errorf("%s: %v", wv.Name, err)
			}
		}
	}
	if broke == 0 {
		t.Fatalf("no trial broke: the comparison saw no violation to carry over")
	}
	for _, d := range results.ReplayDifferences(whole, merged) {
		t.Errorf("one run against the merge: %s", d)
	}
}

// A scenario whose trials draw their timing (check-then-write-lock draws when the
// check lands before the lease ends): the merged workers' trials drew what the one
// run's drew, trial for trial. Outcomes are not compared: they depend on real time.
func TestSafetyWorkersDrawTheOneRunsParameters(t *testing.T) {
	t.Parallel()
	testenv.RequireRedis(t)
	const trials, seed, drawn = 4, 11, "check_before_end_ms"
	whole := readResults(t, safetyCampaign(t, "check-then-write-lock", trials, seed, 0)[0])
	_, merged := mergeCampaign(t, safetyCampaign(t, "check-then-write-lock", trials, seed, 3))
	for i, wv := range whole.Reports[0].Variants {
		mv := merged.Reports[0].Variants[i]
		if mv.Name != wv.Name || len(mv.Trials) != trials {
			t.Fatalf("variant %d: merged %s with %d trials, one run %s", i, mv.Name, len(mv.Trials), wv.Name)
		}
		for n, a := range wv.Trials {
			b := mv.Trials[n]
			da, oka := a.Inputs[drawn]
			db, okb := b.Inputs[drawn]
			if a.N != b.N || a.Seed != b.Seed || !oka || !okb || da != db {
				t.Errorf("%s trial %d: merged n %d seed %d %s %v, one run n %d seed %d %s %v", wv.Name, n, b.N, b.Seed, drawn, db, a.N, a.Seed, drawn, da)
			}
		}
	}
}

// merge refuses, with exit 2 and the reason, safety folders that are no workers'.
func TestMergeRefusesSafetyFoldersOfNoWorker(t *testing.T) {
	t.Parallel()
	var dirs []string
	for range 2 {
		dir := t.TempDir()
		cmd := results.Command{Scenarios: []string{"setnx-expire"}, Trials: 2, Seed: 1}
		if err := results.Write(dir, results.Results{Complete: true, Command: &cmd, Environment: &resultsdir.Environment{}}); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, dir)
	}
	out := filepath.Join(t.TempDir(), "merged")
	var stdout, stderr bytes.Buffer
	if code := run(append([]string{"merge", "--out", out}, dirs...), nil, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "not a worker's folder") {
		t.Errorf("exit %d, stderr %q: want %d naming a folder of no worker", code, stderr.String(), exitUsage)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s written after a refusal", out)
	}
}

// --resume of a worker's folder carries its --worker on, and refuses another share.
func TestSafetyResumeOfAWorkerKeepsItsShare(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cmd := results.Command{Scenarios: []string{"setnx-expire"}, Trials: 3, Seed: 1, Worker: &results.Worker{Index: 0, Of: 3}}
	if err := results.Write(dir, results.Results{Command: &cmd, Environment: &resultsdir.Environment{}}); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"safety", "--resume", dir, "--worker", "1/3"}, nil, &stdout, &stderr)
	if code != exitUsage || !strings.Contains(stderr.String(), "worker.index is 1 here, 0 there") {
		t.Errorf("--resume with another --worker: exit %d, stderr %q; want %d naming the worker's index", code, stderr.String(), exitUsage)
	}
	stderr.Reset()
	// Alone, the recorded worker is carried on (and the fake folder's software refused after).
	run([]string{"safety", "--resume", dir}, nil, &stdout, &stderr)
	if !strings.Contains(stderr.String(), "--worker 0/3") {
		t.Errorf("--resume alone: stderr %q does not carry on --worker 0/3", stderr.String())
	}
	after, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil || !bytes.Equal(before, after) {
		t.Errorf("results.json changed by refused resumes (%v)", err)
	}
}
