package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// TestResumeRefusesAReportCopiedIn: a real run's report is stamped with the binary; a
// report whose seed differs, or that carries no stamp, spliced into the folder, makes
// --resume exit 2 naming it and leaves results.json as it was.
func TestResumeRefusesAReportCopiedIn(t *testing.T) {
	t.Parallel()
	testenv.RequireRedis(t)
	dir := filepath.Join(t.TempDir(), "s")
	var out, errb bytes.Buffer
	if c := run([]string{"safety", "--scenario", "setnx-expire", "--trials", "1", "--seed", "3", "--out", dir}, nil, &out, &errb); c != 0 {
		t.Fatalf("exit %d: %s", c, errb.String())
	}
	res, err := results.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if res.Environment.Binary == "" || len(res.Reports) != 1 || res.Reports[0].Binary != res.Environment.Binary {
		t.Fatalf("binary %q, reports %d stamped %q: want each report stamped with the run's binary", res.Environment.Binary, len(res.Reports), res.Reports[0].Binary)
	}
	for _, c := range []struct {
		name   string
		splice func(r *results.Report)
		says   string
	}{
		{"another seed", func(r *results.Report) { r.Seed = 4 }, "seed 4 there, 3 in the command"},
		{"no stamp", func(r *results.Report) { r.Binary = "" }, "no binary stamp"},
	} {
		t.Run(c.name, func(t *testing.T) {
			spliced := res
			rep := *res.Reports[0]
			c.splice(&rep)
			spliced.Reports = []*results.Report{&rep}
			spliced.Complete = false
			b, err := json.MarshalIndent(spliced, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "results.json")
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			var out, errb bytes.Buffer
			if code := run([]string{"safety", "--resume", dir}, nil, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), c.says) {
				t.Errorf("exit %d, stderr %q: want %d naming %q", code, errb.String(), exitUsage, c.says)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, b) {
				t.Error("a refused resume rewrote results.json")
			}
		})
	}
}
