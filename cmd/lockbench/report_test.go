package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/internal/golden"
	"github.com/lockbench/lockbench/resultsdir"
)

const sampleResults = "../../outputs/testdata/sample"

func TestReportWritesReportAndPrintsCapacity(t *testing.T) {
	t.Parallel()
	dir := golden.Copy(t, sampleResults)
	var stdout, stderr bytes.Buffer
	// Flags after the folder, as the usage line shows them.
	if code := run([]string{"report", dir, "--slo", "p99=5ms", "--strategy", "single,redlock"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "## Capacity") || strings.Contains(string(md), "`wait`") {
		t.Errorf("report.md lacks the capacity section or keeps a filtered-out strategy")
	}
	out := stdout.String()
	if !strings.Contains(out, "capacity: highest offered rate that kept p99 acquire") || !strings.Contains(out, "redlock (") {
		t.Errorf("stdout lacks the capacity answer:\n%s", out)
	}
}

func TestReportRefusesBadInputWithExit2(t *testing.T) {
	t.Parallel()
	newer := golden.Copy(t, sampleResults)
	b, _ := os.ReadFile(filepath.Join(newer, resultsdir.JSONFile))
	os.WriteFile(filepath.Join(newer, resultsdir.JSONFile), bytes.Replace(b, []byte(`"schema_version": 1`), []byte(`"schema_version": 2`), 1), 0o644)
	corrupt := golden.Copy(t, sampleResults)
	logs, _ := filepath.Glob(filepath.Join(corrupt, resultsdir.HistogramsDir, "*.hlog"))
	if len(logs) == 0 {
		t.Fatal("sample has no histogram logs")
	}
	os.WriteFile(logs[0], []byte("garbage, not a histogram log\n"), 0o644)
	good := golden.Copy(t, sampleResults)

	for _, tc := range []struct {
		name    string
		args    []string
		mention string
	}{
		{"not a results folder", []string{"report", t.TempDir()}, "not a lockbench results folder"},
		{"newer schema", []string{"report", newer}, "results.json"},
		{"corrupt histogram log", []string{"report", corrupt}, filepath.Base(logs[0])},
		{"bad slo", []string{"report", good, "--slo", "p99=soon"}, "p99=soon"},
		{"unknown strategy", []string{"report", good, "--strategy", "zookeeper"}, "zookeeper"},
		{"two folders", []string{"report", good, good}, "one results folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			if code := run(tc.args, nil, &bytes.Buffer{}, &stderr); code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			if !strings.Contains(stderr.String(), tc.mention) {
				t.Errorf("stderr %q does not mention %q", stderr.String(), tc.mention)
			}
		})
	}
	for _, dir := range []string{newer, corrupt, good} {
		if _, err := os.Stat(filepath.Join(dir, "report.md")); !os.IsNotExist(err) {
			t.Errorf("%s: report.md written despite bad input", dir)
		}
	}
}
