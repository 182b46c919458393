package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/adr/adrtest"
)

// adrInputs writes synthetic benchmark and safety folders and returns them, comma-joined.
func adrInputs(t *testing.T) string {
	bench, safety := adrtest.Folders(t)
	return bench + "," + safety
}

const adrExample = "../../docs/adr-workload.yaml"

// lockable writes the workload file at path with its latency budget at 200 ms, past
// either floor's p99 (168 ms and 25 ms), and returns the copy's path. At their own
// budgets no lock can meet the shipped workloads (their queueing floors), and the plan
// then runs no lock's step: these tests are about those.
func lockable(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(b), "  max: 10ms", "  max: 200ms", 1)
	if text == string(b) {
		t.Fatalf("%s: no latency budget of 10ms to raise", path)
	}
	copied := filepath.Join(t.TempDir(), filepath.Base(path))
	if err := os.WriteFile(copied, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return copied
}

func runLockbench(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(args, strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestADRWritesTheRecordFromTheShippedWorkload(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "adr.md")
	code, stdout, stderr := runLockbench("adr", "--workload", adrExample, "--results", adrInputs(t), "--out", out, "--date", "2026-12-01")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"status: proposed", "date: 2026-12-01", "## Decision Outcome", "Chosen option:", "## Pros and Cons of the Options", "### Confirmation"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the ADR lacks %q", want)
		}
	}
	if !strings.Contains(stdout, "wrote "+out) {
		t.Fatalf("stdout: %s", stdout)
	}
}

// Bad workload files exit 2, name the field, and write nothing.
func TestADRBadWorkloadExitsTwoNamingTheField(t *testing.T) {
	t.Parallel()
	example, err := os.ReadFile(adrExample)
	if err != nil {
		t.Fatal(err)
	}
	inputs := adrInputs(t)
	cases := []struct{ name, from, to, field string }{
		{"unknown field", "title:", "colour: red\ntitle:", "colour"},
		{"negative rate", "    per_year: 4\n", "    per_year: -4\n", "faults.planned_failover.per_year"},
		{"purpose not one of the two", "purpose: efficiency", "purpose: speed", "purpose"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := strings.Replace(string(example), c.from, c.to, 1)
			if text == string(example) {
				t.Fatal("the case changed nothing")
			}
			dir := t.TempDir()
			wl := filepath.Join(dir, "w.yaml")
			if err := os.WriteFile(wl, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out", "adr.md")
			code, _, stderr := runLockbench("adr", "--workload", wl, "--results", inputs, "--out", out)
			if code != exitUsage || !strings.Contains(stderr, c.field) {
				t.Fatalf("exit %d, stderr %q: want 2 naming %s", code, stderr, c.field)
			}
			if _, err := os.Stat(filepath.Join(dir, "out")); !os.IsNotExist(err) {
				t.Fatalf("bad input left output behind: %v", err)
			}
		})
	}
}

func TestADRUsageErrorsExitTwo(t *testing.T) {
	t.Parallel()
	inputs := adrInputs(t)
	out := filepath.Join(t.TempDir(), "adr.md")
	for _, args := range [][]string{
		{"adr", "--results", inputs, "--out", out},
		{"adr", "--workload", adrExample, "--out", out},
		{"adr", "--workload", adrExample, "--results", inputs},
		{"adr", "--workload", adrExample, "--results", t.TempDir(), "--out", out},
		{"adr", "--workload", adrExample, "--results", inputs, "--out", out, "--date", "tomorrow"},
	} {
		if code, _, stderr := runLockbench(args...); code != exitUsage {
			t.Errorf("%v: exit %d (%s), want 2", args, code, stderr)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("a usage error wrote %s", out)
	}
}
