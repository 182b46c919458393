package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"
	"time"

	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/safety/suite"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// killedSafety is the run the child starts and the parent resumes: setnx-expire's
// trials each sleep twice the TTL, so six of them outlast the kill by far.
var killedSafety = []string{"safety", "--scenario", "setnx-expire", "--trials", "3", "--seed", "11"}

const safetyChildEnv = "LOCKBENCH_SAFETY_CHILD_OUT"

// TestSafetyChildUntilKilled is the child of the test below: it runs killedSafety
// into the folder it was given and exits with the command's code.
func TestSafetyChildUntilKilled(t *testing.T) {
	t.Parallel()
	out := os.Getenv(safetyChildEnv)
	if out == "" {
		t.Skip("the child of TestSafetyKilledAfterAJudgedTrialResumesAsIfNeverStopped")
	}
	fmt.Println("READY")
	os.Exit(run(with(killedSafety, "--out", out), nil, os.Stdout, os.Stderr))
}

// TestSafetyKilledAfterAJudgedTrialResumesAsIfNeverStopped: SIGTERM to a safety run
// after its first judged trial exits 143 and leaves that trial in results.json; a
// resume with another seed, param, trial count, scenario or redis-server is refused
// and changes nothing, whether given whole or as one flag beside --resume; `safety
// --resume DIR` alone runs the recorded command's missing trials only and ends with
// every trial, of the same seeds and outcomes as a run never stopped.
func TestSafetyKilledAfterAJudgedTrialResumesAsIfNeverStopped(t *testing.T) {
	t.Parallel()
	testenv.RequireRedis(t)
	out := filepath.Join(t.TempDir(), "results")
	child, _ := testenv.HoldInChild(t, "TestSafetyChildUntilKilled", safetyChildEnv+"="+out, 0)
	exited := make(chan error, 1)
	go func() { exited <- child.Wait() }()
	seen := firstJudged(t, out, exited)
	if err := child.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var code int
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatal(err)
		}
		code = child.ProcessState.ExitCode()
	case <-time.After(2 * time.Minute):
		t.Fatal("the run did not stop after SIGTERM")
	}
	if code != 128+int(syscall.SIGTERM) {
		t.Fatalf("exit %d after SIGTERM, want %d", code, 128+int(syscall.SIGTERM))
	}

	cut, err := results.Read(out)
	if err != nil {
		t.Fatalf("results after SIGTERM: %v", err)
	}
	if cut.Complete || len(cut.Reports) != 1 || cut.Reports[0].Complete {
		t.Fatalf("results.json after SIGTERM: complete %v, %d reports; want the cut-short scenario, marked incomplete", cut.Complete, len(cut.Reports))
	}
	if n := suite.TrialsIn(cut.Reports[0]); n >= 6 {
		t.Fatalf("all %d trials finished before the kill: the resume below would prove nothing", n)
	}
	for name, trials := range trialsByVariant(seen) {
		if kept := trialsByVariant(cut)[name]; len(kept) < len(trials) || !reflect.DeepEqual(kept[:len(trials)], trials) {
			t.Errorf("%s: the trials written before the kill are not all in results.json after it:\nbefore %+v\nafter  %+v", name, trials, kept)
		}
	}

	resume := with(killedSafety, "--resume", out)
	refusedResume(t, replaced(resume, "--seed", "12"), out, "seed is 12 here, 11 there")
	refusedResume(t, replaced(resume, "--trials", "4"), out, "trials is 4 here, 3 there")
	refusedResume(t, replaced(resume, "--scenario", "unsafe-release"), out, `scenarios is [unsafe-release] here, [setnx-expire] there`)
	refusedResume(t, with(resume, "--param", "ttl=300ms"), out, `params[ttl] is "300ms" here, absent there`)
	refusedResume(t, with(resume, "--out", out), out, "takes the place of --out")
	refusedOnOtherRedisServer(t, killedSafety, out)
	alone := []string{"safety", "--resume", out}
	refusedResume(t, with(alone, "--seed", "12"), out, "seed is 12 here, 11 there")
	refusedResume(t, with(alone, "--scenario", "unsafe-release"), out, `scenarios is [unsafe-release] here, [setnx-expire] there`)
	refusedResume(t, with(alone, "--param", "ttl=300ms"), out, `params[ttl] is "300ms" here, absent there`)
	refusedResume(t, with(alone, "--redis-image", "redis:7"), out, `redis_image is "redis:7" here, "" there`)
	noCommand := copyFolder(t, out)
	dropRecordedCommand(t, noCommand)
	refusedResume(t, []string{"safety", "--resume", noCommand}, noCommand, "records no command")

	var stdout, stderr bytes.Buffer
	if code := run(alone, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("resume: exit %d: %s%s", code, stdout.String(), stderr.String())
	}
	if want := "carries on the recorded --scenario setnx-expire --seed 11 --trials 3"; !bytes.Contains(stderr.Bytes(), []byte(want)) {
		t.Errorf("the resume alone does not say %q:\n%s", want, stderr.String())
	}
	resumed, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if !resumed.Complete || len(resumed.Reports) != 1 || !resumed.Reports[0].Complete || len(resumed.Resumed) != 1 {
		t.Fatalf("resumed results: complete %v, %d reports, resumed %v", resumed.Complete, len(resumed.Reports), resumed.Resumed)
	}
	for name, trials := range trialsByVariant(cut) {
		if kept := trialsByVariant(resumed)[name]; len(kept) < len(trials) || !reflect.DeepEqual(kept[:len(trials)], trials) {
			t.Errorf("%s: the trials finished before the kill were run again or changed", name)
		}
	}

	fresh := filepath.Join(t.TempDir(), "fresh")
	if code := run(with(killedSafety, "--out", fresh), nil, &stdout, &stderr); code != 0 {
		t.Fatalf("uninterrupted run: exit %d: %s", code, stderr.String())
	}
	never, err := results.Read(fresh)
	if err != nil {
		t.Fatal(err)
	}
	want := trialsByVariant(never)
	got := trialsByVariant(resumed)
	if len(want) != 2 || len(got) != len(want) {
		t.Fatalf("variants: resumed %d, uninterrupted %d, want 2", len(got), len(want))
	}
	for name, trials := range want {
		if len(got[name]) != len(trials) || len(trials) != 3 {
			t.Errorf("%s: %d trials resumed, %d uninterrupted, want 3", name, len(got[name]), len(trials))
			continue
		}
		for i, w := range trials {
			g := got[name][i]
			if g.N != i || g.N != w.N || g.Seed != w.Seed || g.Outcome != w.Outcome || !reflect.DeepEqual(g.Counts, w.Counts) {
				t.Errorf("%s trial %d: resumed (n %d, seed %d, %s, %v), uninterrupted (n %d, seed %d, %s, %v)",
					name, i, g.N, g.Seed, g.Outcome, g.Counts, w.N, w.Seed, w.Outcome, w.Counts)
			}
		}
	}

	refusedResume(t, replaced(resume, "--seed", "13"), out, "seed is 13 here, 11 there")
	before := folderBytes(t, out)
	stdout.Reset()
	if code := run(alone, nil, &stdout, &stderr); code != 0 || !bytes.Contains(stdout.Bytes(), []byte("nothing to resume")) {
		t.Errorf("resume of a complete run: exit %d: %s", code, stdout.String())
	}
	if !reflect.DeepEqual(before, folderBytes(t, out)) {
		t.Errorf("a resume of a complete run changed the folder")
	}
}

// firstJudged polls results.json until it holds a judged trial, and returns it.
func firstJudged(t *testing.T, out string, exited <-chan error) results.Results {
	t.Helper()
	deadline := time.After(2 * time.Minute)
	for {
		if res, err := results.Read(out); err == nil {
			for _, r := range res.Reports {
				for _, v := range r.Variants {
					if v.Tally.Judged > 0 {
						return res
					}
				}
			}
		}
		select {
		case err := <-exited:
			t.Fatalf("the run ended (%v) before a trial was judged", err)
		case <-deadline:
			t.Fatal("no judged trial in results.json in two minutes")
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// trialsByVariant lists every report's trials by variant name.
func trialsByVariant(res results.Results) map[string][]results.Trial {
	out := map[string][]results.Trial{}
	for _, r := range res.Reports {
		for _, v := range r.Variants {
			out[r.Scenario+"/"+v.Name] = v.Trials
		}
	}
	return out
}

// dropRecordedCommand removes "command" from dir's results.json: a folder written
// before safety runs recorded what they were asked.
func dropRecordedCommand(t *testing.T, dir string) {
	t.Helper()
	editResultsJSON(t, dir, func(path string, b []byte) []byte {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(b, &fields); err != nil {
			t.Fatal(err)
		}
		if _, ok := fields["command"]; !ok {
			t.Fatalf("%s records no command: the refusal would prove nothing", path)
		}
		delete(fields, "command")
		b, err := json.Marshal(fields)
		if err != nil {
			t.Fatal(err)
		}
		return b
	})
}
