package main

import (
	"bytes"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/safety/suite"
	"github.com/lockbench/lockbench/topologies/testenv"
)

func TestSafetyListShowsParamsStrategiesAndFaults(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"safety", "--list"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	list := stdout.String()
	s, err := lab.Lookup("setnx-expire")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range s.Params() {
		if want := fmt.Sprintf("--param %s=%s  %s", p.Name, p.Default, p.Help); !strings.Contains(list, want) {
			t.Errorf("--list lacks %q:\n%s", want, list)
		}
	}
	// The etcd strategies are registered by this command's import of backends/etcd/etcdlock.
	for _, want := range []string{"client-pause", "node-kill", "etcd", "redlock"} {
		if !strings.Contains(list, want) {
			t.Errorf("--list lacks %q:\n%s", want, list)
		}
	}
}

// safeWord finds "safe" as a word: a share of zero is never reported as safe.
var safeWord = regexp.MustCompile(`(?i)\bsafe\b`)

func TestSafetyRunWritesResults(t *testing.T) {
	t.Parallel()
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

// underCtrlC readies a test that sends this process SIGINT: it needs Redis and /proc
// (to find the servers this process started), and it catches SIGINT here too, so
// that the signal can never end the test binary.
func underCtrlC(t *testing.T) {
	t.Helper()
	testenv.RequireRedis(t)
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc to find the servers this process started")
	}
	guard := make(chan os.Signal, 1)
	signal.Notify(guard, syscall.SIGINT)
	t.Cleanup(func() { signal.Stop(guard) })
}

func TestSafetyCtrlCClosesServersAndExits130(t *testing.T) {
	underCtrlC(t)

	out := filepath.Join(t.TempDir(), "results")
	var stdout, stderr lockedBuffer
	code := make(chan int, 1)
	go func() {
		code <- run([]string{"safety", "--scenario", "unsafe-release", "--trials", "100000", "--out", out}, nil, &stdout, &stderr)
	}()
	// A trial has ended: the scenario's server is up and more trials are under way.
	awaitOutput(t, &stderr, "trial 0:", code, &stdout, &stderr)
	if len(redisChildren(t)) == 0 {
		t.Fatal("no redis-server of this process is running: the check below would prove nothing")
	}
	if c := interruptRun(t, code, &stderr); c != exitInterrupted {
		t.Errorf("exit %d after SIGINT, want %d: %s", c, exitInterrupted, stderr.String())
	}
	// The only scenario was cut short: the trials it finished are kept, marked so.
	res, err := results.Read(out)
	if err != nil {
		t.Fatalf("no results after an interrupt that followed a finished trial: %v", err)
	}
	if res.Complete || len(res.Reports) != 1 || res.Reports[0].Complete || suite.TrialsIn(res.Reports[0]) == 0 {
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
