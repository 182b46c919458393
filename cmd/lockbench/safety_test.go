package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/lockbench/lockbench/internal/interrupt"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/safety"
	"github.com/lockbench/lockbench/safety/results"
)

func TestSafetyBadInputExitsTwoAndWritesNothing(t *testing.T) {
	cases := []struct {
		args []string
		want string // the field the error must name
	}{
		{[]string{"--out", "OUT"}, "--scenario"},
		{[]string{"--scenario", "no-such", "--out", "OUT"}, "--scenario"},
		{[]string{"--scenario", "setnx-expire"}, "--out"},
		{[]string{"--scenario", "setnx-expire", "--trials", "0", "--out", "OUT"}, "--trials"},
		{[]string{"--scenario", "setnx-expire", "--trials", "100001", "--out", "OUT"}, "--trials"},
		{[]string{"--scenario", "setnx-expire", "--param", "ttl=soon", "--out", "OUT"}, "ttl"},
		{[]string{"--scenario", "setnx-expire", "--param", "ttl=0s", "--out", "OUT"}, "ttl"},
		{[]string{"--scenario", "setnx-expire", "--param", "bogus=1", "--out", "OUT"}, "bogus"},
		{[]string{"--scenario", "setnx-expire", "--param", "novalue", "--out", "OUT"}, "param"},
		{[]string{"--scenario", "all", "--param", "ttl=1s", "--out", "OUT"}, "--param"},
		{[]string{"--scenario", "failover-loss", "--param", "modes=none,quorum", "--out", "OUT"}, "modes"},
		{[]string{"--scenario", "setnx-expire", "--out", "OUT", "extra"}, "extra"},
	}
	for _, c := range cases {
		out := filepath.Join(t.TempDir(), "results")
		args := []string{"safety"}
		for _, a := range c.args {
			args = append(args, strings.ReplaceAll(a, "OUT", out))
		}
		var stdout, stderr bytes.Buffer
		if code := run(args, nil, &stdout, &stderr); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (stderr %s)", c.args, code, exitUsage, stderr.String())
		}
		if !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: error %q does not name %s", c.args, stderr.String(), c.want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%v: %s exists after bad input", c.args, out)
		}
	}
}

func TestSafetyListShowsParamsStrategiesAndFaults(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"safety", "--list"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	list := stdout.String()
	s, err := safety.Lookup("setnx-expire")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range s.Params() {
		if want := fmt.Sprintf("--param %s=%s  %s", p.Name, p.Default, p.Help); !strings.Contains(list, want) {
			t.Errorf("--list lacks %q:\n%s", want, list)
		}
	}
	// The etcd strategies are registered by this command's import of locks/etcdlock.
	for _, want := range []string{"client-pause", "node-kill", "etcd", "redlock"} {
		if !strings.Contains(list, want) {
			t.Errorf("--list lacks %q:\n%s", want, list)
		}
	}
}

// safeWord finds "safe" as a word: a share of zero is never reported as safe.
var safeWord = regexp.MustCompile(`(?i)\bsafe\b`)

func TestSafetyRunWritesResults(t *testing.T) {
	testenv.RequireRedis(t)
	out := filepath.Join(t.TempDir(), "results")
	var stdout, stderr bytes.Buffer
	code := run([]string{"safety", "--scenario", "unsafe-release", "--trials", "1", "--seed", "7", "--out", out}, nil, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	res, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Reports) != 1 || res.Reports[0].Scenario != "unsafe-release" || res.Reports[0].Seed != 7 {
		t.Fatalf("results.json: %+v", res.Reports)
	}
	plain := res.Reports[0].Variant("plain-del")
	if plain == nil || plain.Tally.Judged != 1 || plain.Tally.Broke[results.Violations] != 1 {
		t.Fatalf("plain-del: %+v, want one judged trial with two holders", plain)
	}
	if len(plain.Visualizations) == 0 {
		t.Errorf("plain-del broke but no porcupine page was written")
	}
	for _, page := range plain.Visualizations {
		if _, err := os.Stat(page); err != nil {
			t.Errorf("visualization: %v", err)
		}
	}
	md, err := os.ReadFile(filepath.Join(out, "results.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| plain-del |", "| lua-release |", "of 1 judged ("} {
		if !strings.Contains(string(md), want) {
			t.Errorf("results.md lacks %q:\n%s", want, md)
		}
	}
	if w := safeWord.FindString(string(md)); w != "" {
		t.Errorf("results.md says %q:\n%s", w, md)
	}
	// Every figure results.json names was written.
	for _, f := range res.Figures {
		for _, file := range f.Files {
			if _, err := os.Stat(filepath.Join(out, file)); err != nil {
				t.Errorf("figure %s: %v", f.Name, err)
			}
		}
	}
}

// fakeScenario runs without servers, for the CLI's own loop.
type fakeScenario struct {
	name string
	run  func(ctx context.Context) (*results.Report, error)
}

func (f fakeScenario) Name() string           { return f.name }
func (f fakeScenario) Summary() string        { return "a stand-in" }
func (f fakeScenario) Params() []safety.Param { return nil }
func (f fakeScenario) Run(ctx context.Context, _ *safety.Env, _ safety.Values) (*results.Report, error) {
	return f.run(ctx)
}

func fakeReport(scenario string) *results.Report {
	v := &results.Variant{Name: "v", Measure: results.Violations}
	v.Add(results.Trial{Outcome: results.Judged, Proof: []string{"seen"}, Counts: map[results.Measure]int{results.Violations: 0}})
	return &results.Report{Scenario: scenario, Variants: []*results.Variant{v}}
}

func TestSafetyInterruptKeepsOnlyFinishedScenarios(t *testing.T) {
	out := filepath.Join(t.TempDir(), "results")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	chosen := []safety.Scenario{
		fakeScenario{"first", func(context.Context) (*results.Report, error) { return fakeReport("first"), nil }},
		// The worst case: interrupted, it still returns the trials it got through.
		fakeScenario{"second", func(context.Context) (*results.Report, error) { cancel(); return fakeReport("second"), nil }},
		fakeScenario{"third", func(context.Context) (*results.Report, error) {
			t.Error("a scenario ran after the interrupt")
			return fakeReport("third"), nil
		}},
	}
	var stdout, stderr bytes.Buffer
	err := runScenarios(ctx, chosen, &safety.Env{Trials: 1, OutDir: out}, newSafetyFolder(out, results.Command{}, resultsdir.Environment{}), nil, &stdout, &stderr)
	if !errors.Is(err, interrupt.ErrInterrupted) {
		t.Fatalf("runScenarios: %v, want interrupt.ErrInterrupted", err)
	}
	res, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Reports) != 1 || res.Reports[0].Scenario != "first" || !res.Reports[0].Complete || res.Complete {
		t.Errorf("results.json holds %d reports (complete %v), want only the finished first one, the run incomplete: %+v", len(res.Reports), res.Complete, res.Reports)
	}
	if !strings.Contains(stdout.String(), "interrupted after 1 of 3 scenarios") {
		t.Errorf("stdout does not say the run was interrupted:\n%s", stdout.String())
	}

	// A scenario's failure stops the run too, with what finished still written.
	out = filepath.Join(t.TempDir(), "results")
	chosen = []safety.Scenario{
		fakeScenario{"first", func(context.Context) (*results.Report, error) { return fakeReport("first"), nil }},
		fakeScenario{"broken", func(context.Context) (*results.Report, error) { return nil, errors.New("no servers") }},
	}
	err = runScenarios(context.Background(), chosen, &safety.Env{Trials: 1, OutDir: out}, newSafetyFolder(out, results.Command{}, resultsdir.Environment{}), nil, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "broken") {
		t.Errorf("runScenarios: %v, want the broken scenario's error", err)
	}
	if res, err := results.Read(out); err != nil || len(res.Reports) != 1 {
		t.Errorf("after a failure: %v, %d reports, want the finished one", err, len(res.Reports))
	}
}

// lockedBuffer is a writer the run logs to from its trial goroutines while the test
// reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestSafetyCtrlCClosesServersAndExits130(t *testing.T) {
	testenv.RequireRedis(t)
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc to find the servers this process started")
	}
	// Catch SIGINT here too, so that it can never end the test binary.
	guard := make(chan os.Signal, 1)
	signal.Notify(guard, syscall.SIGINT)
	defer signal.Stop(guard)

	out := filepath.Join(t.TempDir(), "results")
	var stdout, stderr lockedBuffer
	code := make(chan int, 1)
	go func() {
		code <- run([]string{"safety", "--scenario", "unsafe-release", "--trials", "100000", "--out", out}, nil, &stdout, &stderr)
	}()
	// A trial has ended: the scenario's server is up and more trials are under way.
	deadline := time.After(2 * time.Minute)
	for !strings.Contains(stderr.String(), "trial 0:") {
		select {
		case c := <-code:
			t.Fatalf("the run ended (exit %d) before its first trial: %s", c, stderr.String())
		case <-deadline:
			t.Fatalf("no trial ended in two minutes: %s", stderr.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	if len(redisChildren(t)) == 0 {
		t.Fatal("no redis-server of this process is running: the check below would prove nothing")
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-code:
		if c != exitInterrupted {
			t.Errorf("exit %d after SIGINT, want %d: %s", c, exitInterrupted, stderr.String())
		}
	case <-time.After(2 * time.Minute):
		t.Fatalf("the run did not stop after SIGINT: %s", stderr.String())
	}
	if left := redisChildren(t); len(left) > 0 {
		t.Errorf("redis-server pids %v still run after the interrupted run returned", left)
	}
	// The only scenario was cut short: the trials it finished are kept, marked so.
	res, err := results.Read(out)
	if err != nil {
		t.Fatalf("no results after an interrupt that followed a finished trial: %v", err)
	}
	if res.Complete || len(res.Reports) != 1 || res.Reports[0].Complete || trialsIn(res.Reports[0]) == 0 {
		t.Errorf("results.json after the interrupt: complete %v, %d reports, want the cut-short scenario with its finished trials, marked incomplete", res.Complete, len(res.Reports))
	}
}

// redisChildren lists the redis-server processes this test process started.
func redisChildren(t *testing.T) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue // gone since the listing
		}
		// pid (comm) state ppid ...: comm may hold spaces, so split after its ')'.
		s := string(stat)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open {
			continue
		}
		fields := strings.Fields(s[end+1:])
		if len(fields) < 2 || fields[0] == "Z" {
			continue
		}
		if ppid, _ := strconv.Atoi(fields[1]); ppid == os.Getpid() && strings.HasPrefix(s[open+1:end], "redis-server") {
			pids = append(pids, pid)
		}
	}
	return pids
}

// TestResumeInterruptedBeforeItsFirstTrialKeepsWhatItResumed: a resumed run stopped
// before it got back to the trials it carries on (its servers never started) still
// writes them; a scenario the interrupted run finished is kept without running.
func TestResumeInterruptedBeforeItsFirstTrialKeepsWhatItResumed(t *testing.T) {
	out := filepath.Join(t.TempDir(), "results")
	finished, cut := fakeReport("finished"), fakeReport("cut")
	finished.Complete = true
	folder := newSafetyFolder(out, results.Command{}, resultsdir.Environment{})
	folder.resumed = map[string]*results.Report{"finished": finished, "cut": cut}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	chosen := []safety.Scenario{
		fakeScenario{"finished", func(context.Context) (*results.Report, error) {
			t.Error("a scenario the interrupted run finished ran again")
			return nil, nil
		}},
		fakeScenario{"cut", func(ctx context.Context) (*results.Report, error) { cancel(); return nil, ctx.Err() }},
	}
	var stdout, stderr bytes.Buffer
	if err := runScenarios(ctx, chosen, &safety.Env{Trials: 1, OutDir: out}, folder, nil, &stdout, &stderr); !errors.Is(err, interrupt.ErrInterrupted) {
		t.Fatalf("runScenarios: %v, want interrupt.ErrInterrupted", err)
	}
	res, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if res.Complete || len(res.Reports) != 2 || res.Reports[0].Scenario != "finished" || res.Reports[1].Scenario != "cut" || trialsIn(res.Reports[1]) != 1 {
		t.Errorf("results.json: complete %v, reports %+v; want the finished one and the cut one's trial, incomplete", res.Complete, res.Reports)
	}
}
