package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/adr/plan"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// lagStep is a tiny real step: one replication-lag trial of 5 probes on a real Redis.
func lagStep(dir string, estimate time.Duration) plan.Step {
	args := []string{"safety", "--scenario", "replication-lag", "--trials", "1", "--seed", "1",
		"--param", "rates=0", "--param", "saturate=off", "--param", "probes=5", "--out", dir}
	return plan.Step{What: "lag", Args: args, Command: "lockbench " + strings.Join(args, " "), Out: dir, Estimate: estimate}
}

// A tiny plan on real servers: the step within the budget runs, the one past it is left
// and said, the ADR is written from the given results and the new folder; run again,
// the complete folder is kept, not measured twice.
func TestADRMeasureRunsATinyPlanResumably(t *testing.T) {
	t.Parallel()
	testenv.NeedsServers(t)
	root := t.TempDir()
	out := filepath.Join(root, "m")
	first, second := filepath.Join(out, "lag"), filepath.Join(out, "lag-long")
	p := &plan.Plan{Steps: []plan.Step{lagStep(first, 2*time.Second), lagStep(second, 10*time.Hour),
		{What: "no command yet", NotYet: "no scenario"}}}
	inputs := strings.Split(adrInputs(t), ",")
	var stdout, stderr bytes.Buffer
	if err := measureThenWrite(p, adrExample, inputs, out, time.Hour, "2026-12-02", "lockbench adr --measure", &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if f, err := resultsdir.Inspect(first); f.State != "complete" || err != nil {
		t.Fatalf("the step within the budget: %s %v\n%s", f.State, err, stderr.String())
	}
	if _, err := os.Stat(second); !os.IsNotExist(err) {
		t.Fatalf("the step past the budget ran: %v", err)
	}
	if !strings.Contains(stdout.String(), "left for the time budget 1h0m0s") || !strings.Contains(stdout.String(), p.Steps[1].Command+"  # estimated 10h0m0s") {
		t.Fatalf("the left step is not said:\n%s", stdout.String())
	}
	md, err := os.ReadFile(filepath.Join(out, "adr.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), first) {
		t.Fatalf("the ADR does not read the new folder %s", first)
	}
	before, _ := os.ReadFile(filepath.Join(first, "results.json"))
	stdout.Reset()
	if err := measureThenWrite(p, adrExample, inputs, out, time.Hour, "2026-12-02", "lockbench adr --measure", &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(filepath.Join(first, "results.json"))
	if !strings.Contains(stdout.String(), "step 1: kept "+first) || !bytes.Equal(before, after) {
		t.Fatalf("a complete folder was measured again:\n%s", stdout.String())
	}
}

// An interrupted folder is carried on with --resume; a failing command stops the run,
// naming its step; a folder with files but no results.json is refused.
func TestADRMeasureResumesAndStopsOnFailure(t *testing.T) {
	root := t.TempDir()
	partial, fresh := filepath.Join(root, "partial"), filepath.Join(root, "fresh")
	if err := os.MkdirAll(partial, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(partial, "results.json"), []byte(`{"complete": false, "reports": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var calls [][]string
	saved := dispatch
	t.Cleanup(func() { dispatch = saved })
	dispatch = func(args []string, _ io.Reader, _, _ io.Writer) int {
		calls = append(calls, args)
		if slices.Contains(args, fresh) {
			return 1
		}
		return 0
	}
	p := &plan.Plan{Steps: []plan.Step{lagStep(partial, time.Second), lagStep(fresh, time.Second), lagStep(filepath.Join(root, "never"), time.Second)}}
	_, err := measurePlan(p, 0, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "step 2 ("+fresh+") exited 1") {
		t.Fatalf("err %v", err)
	}
	if len(calls) != 2 || !slices.Equal(calls[0], []string{"safety", "--resume", partial}) || !slices.Equal(calls[1], p.Steps[1].Args) {
		t.Fatalf("calls %q", calls)
	}
	junk := filepath.Join(root, "junk")
	if err := os.MkdirAll(junk, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(junk, "notes.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := measurePlan(&plan.Plan{Steps: []plan.Step{lagStep(junk, time.Second)}}, 0, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "no results.json") {
		t.Fatalf("a folder of other files: %v", err)
	}
}

// A complete folder made with other params (an earlier plan's, with fewer modes) is
// not kept as if it answered the step, nor an interrupted one resumed: the run stops
// naming both commands, and runs nothing; the same params are kept.
func TestADRMeasureRefusesAFolderMadeWithOtherParams(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lag")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	complete := "true"
	write := func(params string) {
		doc := `{"complete": ` + complete + `, "command": {"scenarios": ["replication-lag"], "trials": 1, "seed": 1, "params": ` + params + `}, "reports": []}`
		if err := os.WriteFile(filepath.Join(dir, "results.json"), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	forbidRuns(t)
	p := &plan.Plan{Steps: []plan.Step{lagStep(dir, time.Second)}}
	write(`{"rates": "0", "saturate": "off"}`)
	_, err := measurePlan(p, 0, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "was made with --param rates=0 --param saturate=off") || !strings.Contains(err.Error(), "probes=5") {
		t.Fatalf("a folder made without probes=5: %v", err)
	}
	write(`{"rates": "0", "saturate": "off", "probes": "5"}`)
	if m, err := measurePlan(p, 0, io.Discard, io.Discard); err != nil || len(m.kept) != 1 {
		t.Fatalf("the same params: kept %v, %v", m.kept, err)
	}
	// Nor is an interrupted one resumed: --resume would carry on its own params.
	complete = "false"
	write(`{"rates": "0", "saturate": "off"}`)
	if _, err := measurePlan(p, 0, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "(partial) was made with --param rates=0 --param saturate=off") {
		t.Fatalf("a partial folder made without probes=5: %v", err)
	}
}

func TestADRMeasureUsageErrorsExitTwo(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"adr", "--workload", adrExample, "--measure"},                                  // no --out
		{"adr", "--measure", "--out", t.TempDir()},                                      // no --workload
		{"adr", "--workload", adrExample, "--plan", "--measure", "--out", t.TempDir()},  // both
		{"adr", "--workload", adrExample, "--time-budget", "30m", "--out", t.TempDir()}, // budget without --measure
		{"adr", "--workload", adrExample, "--measure", "--time-budget", "-1m", "--out", t.TempDir()},
	} {
		if code, _, stderr := runLockbench(args...); code != exitUsage {
			t.Errorf("%v: exit %d (%s), want 2", args, code, stderr)
		}
	}
}

// earlierLag writes, under a new out folder, the lag step of the plan made with no
// results as an earlier --measure completed it (its params: rates=20 for 10 locks/s),
// holding reports; it returns out, the step's folder, and stops any command from
// running (the tests give a 1 ns budget).
func earlierLag(t *testing.T, reports string) (out, lag string) {
	out = filepath.Join(t.TempDir(), "m")
	lag = filepath.Join(out, "replication-lag")
	if err := os.MkdirAll(lag, 0o755); err != nil {
		t.Fatal(err)
	}
	doc := `{"complete": true, "command": {"scenarios": ["replication-lag"], "trials": 5, "seed": 1, "params": {"rates": "20", "saturate": "off"}}, "reports": ` + reports + `}`
	if err := os.WriteFile(filepath.Join(lag, "results.json"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	forbidRuns(t)
	return out, lag
}

// forbidRuns fails the test if any plan step's command runs, for the rest of it.
func forbidRuns(t *testing.T) {
	saved := dispatch
	t.Cleanup(func() { dispatch = saved })
	dispatch = func(args []string, _ io.Reader, _, _ io.Writer) int {
		t.Errorf("ran %q", args)
		return 0
	}
}

// A folder an earlier --measure completed is read even when the given results cover
// its step (the plan then drops the step): before, the ADR was written without it.
func TestADRMeasureReadsWhatItCompletedEarlier(t *testing.T) {
	out, lag := earlierLag(t, "[]")
	// The synthetic results hold replication lag up to 5000 writes/s: the lag step is had.
	var stdout, stderr bytes.Buffer
	if err := runADRMeasure(lockable(t, adrExample), strings.Split(adrInputs(t), ","), out, time.Nanosecond, "2026-12-02", &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	md, err := os.ReadFile(filepath.Join(out, "adr.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "Safety results: ["+lag+"]") {
		t.Errorf("the ADR does not read the folder completed earlier, %s:\n%s", lag, stdout.String())
	}
}

// A step the plan still needs although an earlier --measure completed its folder (the
// folder lacks some trials) writes beside it, -more, never over it or refused by it.
func TestADRMeasurePutsWhatAFolderLacksBesideIt(t *testing.T) {
	// Its lag was measured at 5 writes/s, below the workload's 20.
	out, lag := earlierLag(t, `[{"scenario": "replication-lag", "complete": true, "variants": [{"name": "rate-5", "trials": [{"trial": 0, "outcome": "judged", "inputs": {"load_per_s": 5, "lag_ms_r0_p000": 0.1}}]}]}]`)
	var stdout, stderr bytes.Buffer
	if err := runADRMeasure(lockable(t, adrExample), nil, out, time.Nanosecond, "2026-12-02", &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "--param rates=20 --param saturate=off --out "+lag+"-more  # estimated") {
		t.Errorf("the lag step does not go beside the earlier folder:\n%s", stdout.String())
	}
}

// The shipped efficiency workload needs no measurement: its queueing floor rules every
// lock out, and a lock is its only way. --measure runs nothing and still writes the
// record, which says so; a plan with a step left (here: a time budget too small for
// any) and no results writes none.
func TestADRMeasureWritesTheRecordTheFloorDecides(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := runADRMeasure(adrExample, nil, out, 0, "2026-12-06", &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	md, err := os.ReadFile(filepath.Join(out, "adr.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Chosen option: none. No lock can meet the latency budget",
		"**No lock can meet the latency budget**", "from 0 folders (0 run now"} {
		if !strings.Contains(string(md)+stdout.String(), want) {
			t.Errorf("missing %q:\n%s", want, stdout.String())
		}
	}
	if err := runADRMeasure(lockable(t, adrExample), nil, t.TempDir(), time.Nanosecond, "2026-12-06", &stdout,
		&stderr); err == nil || !strings.Contains(err.Error(), "no ADR to write") {
		t.Errorf("a plan left whole with no results: %v", err)
	}
}
