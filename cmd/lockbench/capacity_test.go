package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/capacity"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/topologies/testenv"
)

func TestCapacityRefusesBadInputNamingTheFieldAndCreatesNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	unknown := writeTestFile(t, dir, "unknown.yaml", "strategies: [single]\nprecission: 5%\n")
	badPrecision := writeTestFile(t, dir, "precision.yaml", "precision: 100%\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--slo", "p99"}, "slo"},
		{[]string{"--slo", "5ms"}, "slo"},
		{[]string{"--slo", "p99=fast"}, "slo"},
		{[]string{"--slo", "max=5ms"}, "slo: percentile"},
		{[]string{"--precision", "0"}, "precision"},
		{[]string{"--precision", "0%"}, "precision"},
		{[]string{"--precision", "-5%"}, "precision"},
		{[]string{"--precision", "100%"}, "precision"},
		{[]string{"--precision", "1"}, "precision"},
		{[]string{"--precision", "lots"}, "precision"},
		{[]string{"--strategies", "cas-version"}, "cas-version cannot run open loop"},
		{[]string{"--strategies", "consul"}, "consul"},
		{[]string{"--strategies", "single,single"}, "names single twice"},
		{[]string{"--clients", "0"}, "clients = 0"},
		{[]string{"--keys", "0"}, `keys "0"`},
		{[]string{"--arrival", "burst"}, "arrival"},
		{[]string{"--hold", "-1ms"}, "hold"},
		{[]string{"--start", "0"}, "start rate"},
		{[]string{"--max", "10"}, "max rate"},
		{[]string{"--min-duration", "0"}, "min-duration"},
		{[]string{"--config", unknown}, "precission"},
		{[]string{"--config", badPrecision}, "precision"},
		{[]string{"extra"}, "unexpected arguments"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			refusesBadInput(t, append([]string{"capacity", "--out", out}, tc.args...), out, tc.want)
		})
	}
}

func TestFlagsOverrideTheCapacityConfigFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := writeTestFile(t, dir, "c.yaml", "strategies: [redlock]\nslo: p99.9=2ms\nprecision: 10%\nclients: [8, 16]\n")
	cli := newCapacityCLI(io.Discard)
	if err := cli.fs.Parse([]string{"--config", file, "--precision", "2%"}); err != nil {
		t.Fatal(err)
	}
	plan, slo, err := resolveCapacity(cli.fs, file)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Params.Precision != 0.02 || plan.Config.Strategies[0] != "redlock" || len(plan.Conditions) != 2 || slo.Percentile != "p99.9" {
		t.Errorf("plan %+v", plan)
	}
}

// A real search on one Redis: every probe is a cell of the folder, the record names
// them, and the report carries the searched table and its figure.
func TestCapacitySearchIsRecordedAsAResultsFolder(t *testing.T) {
	t.Parallel()
	testenv.RequireRedis(t)
	out := filepath.Join(t.TempDir(), "cap")
	var stdout, stderr bytes.Buffer
	code := run([]string{"capacity", "--strategies", "single", "--slo", "p90=1s", "--precision", "50%", "--clients", "4",
		"--start", "200", "--max", "400", "--warmup", "0", "--min-duration", "50ms", "--out", out}, strings.NewReader(""), &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, stdout.String(), stderr.String())
	}
	rec, ok, err := capacity.ReadRecord(out)
	if err != nil || !ok || len(rec.Searches) != 1 {
		t.Fatalf("record %+v %v %v", rec, ok, err)
	}
	run, err := resultsdir.ReadRun(out)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, c := range run.Cells {
		names[c.Name] = true
	}
	s := rec.Searches[0]
	if len(s.Probes) == 0 || len(run.Cells) != len(s.Probes) {
		t.Fatalf("%d probes, %d cells", len(s.Probes), len(run.Cells))
	}
	for _, p := range s.Probes {
		if !names[p.Cell] {
			t.Errorf("probe %s is not a cell of results.json", p.Cell)
		}
	}
	if _, ok := s.TopCPU["master-0"]; !ok {
		t.Errorf("no server CPU at the top probes: %v", s.TopCPU)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil || !strings.Contains(string(md), "Capacity searched") || !strings.Contains(string(md), "capacity-knee") {
		t.Errorf("report.md lacks the searched capacity (%v)", err)
	}
	js, _ := json.Marshal(s)
	if !strings.Contains(stdout.String(), "single") {
		t.Errorf("stdout lacks the table: %s (%s)", stdout.String(), js)
	}
}
