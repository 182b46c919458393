package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/sweep"
	"github.com/lockbench/lockbench/topologies/testenv"
)

func TestRunRefusesBadInputAndCreatesNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	badConfig := writeTestFile(t, dir, "bad.yaml", "sweeps:\n  - strategies: [single]\n    clientz: [8]\n")
	emptyConfig := writeTestFile(t, dir, "empty.yaml", "\n")
	wrongType := writeTestFile(t, dir, "wrong.yaml", "warmup: [1s]\n")
	cases := map[string][]string{
		"consul":                  {"--strategies", "consul"},
		"clients = 0":             {"--clients", "0"},
		"rate = -5":               {"--load", "open", "--rate", "-5"},
		"duration = 0s":           {"--duration", "0"},
		"network profile":         {"--network", "wan"},
		"must be a finite number": {"--load", "open", "--rate", "Inf"},
		"names single twice":      {"--strategies", "single,single"},
		"has an empty entry":      {"--strategies", "single,,redlock"},
		"the file is empty":       {"--config", emptyConfig},
		"clientz":                 {"--config", badConfig},
		"warmup":                  {"--config", wrongType},
		"progress":                {"--progress", "fancy"},
		"provider":                {"--provider", "cloud"},
		// Intervals: one has no spread; too many leave pieces shorter than 100ms.
		"intervals = 1: want at least 2":                  {"--intervals", "1"},
		"intervals = 60: a measured duration of 5s holds": {"--duration", "5s", "--intervals", "60"},
		"--intervals": {"--intervals", "ten"},
		"repeat = -2": {"--repeat", "-2"},
		// The update workload: a guard that needs a fence, with a strategy without one.
		"guard fenced needs a fencing token and strategy redlock has none": {"--workload", "update", "--strategies", "redlock", "--guards", "fenced"},
		`unknown guard mode "fancy"`:                                       {"--workload", "update", "--strategies", "single", "--guards", "fancy"},
		"cas-version is lock-free":                                         {"--strategies", "cas-version"},
		"guards: only the update workload":                                 {"--guards", "fenced"},
		`--workload "batch"`:                                               {"--workload", "batch"},
		"the update workload runs without a network":                       {"--workload", "update", "--strategies", "single", "--network", "uniform:1ms"},
	}
	for want, args := range cases {
		out := filepath.Join(dir, "out-"+strings.ReplaceAll(want, " ", "_"))
		refusesBadInput(t, append([]string{"run", "--out", out}, args...), out, want)
	}
}

func TestFlagsOverrideTheConfigFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "c.yaml")
	file := sweep.Config{
		Duration: sweep.Duration(7 * time.Second), Seed: 9,
		Sweeps: []sweep.Sweep{{Strategies: []string{"redlock"}, Clients: []int{2, 4}}, {Strategies: []string{"single"}, Clients: []int{3}}},
	}
	data, _ := file.YAML()
	os.WriteFile(path, data, 0o644)

	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var f runFlags
	f.register(fs)
	if err := fs.Parse([]string{"--config", path, "--clients", "16", "--seed", "5"}); err != nil {
		t.Fatal(err)
	}
	cfg, err := f.resolve(fs)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Duration != file.Duration || cfg.Seed != 5 {
		t.Errorf("duration %v seed %d; want the file's 7s and the flag's 5", cfg.Duration, cfg.Seed)
	}
	if len(cfg.Sweeps) != 2 || cfg.Sweeps[0].Strategies[0] != "redlock" {
		t.Fatalf("sweeps from the file lost: %+v", cfg.Sweeps)
	}
	for i, s := range cfg.Sweeps {
		if len(s.Clients) != 1 || s.Clients[0] != 16 {
			t.Errorf("sweep %d clients %v, want the flag's [16]", i, s.Clients)
		}
	}
}

// TestUpdateWorkloadAuditsEveryWay runs `lockbench run --workload update` on real
// servers: a lock with its plain and fenced write and two lock-free ways, each cell
// audited afterwards. Without faults no way may lose an update or refuse one.
func TestUpdateWorkloadAuditsEveryWay(t *testing.T) {
	t.Parallel()
	testenv.RequireRedis(t)
	testenv.RequirePostgres(t)
	out := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	code := run([]string{"run", "--workload", "update", "--strategies", "single,cas-version,lua-cas", "--clients", "4", "--keys", "1",
		"--duration", "300ms", "--warmup", "0", "--progress", "plain", "--out", out}, nil, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, stdout.String(), stderr.String())
	}
	got, err := resultsdir.ReadRun(out)
	if err != nil {
		t.Fatal(err)
	}
	// The run's own command, whichever process ran it (adr --measure runs it in its own).
	if cl := got.Environment.CommandLine; len(cl) < 3 || cl[0] != "lockbench" || cl[1] != "run" || cl[2] != "--workload" {
		t.Errorf("results.json records the command %q, want lockbench run and its flags", cl)
	}
	ways := map[string]bool{}
	for _, c := range got.Cells {
		ways[c.Strategy+"+"+c.Guard] = true
		u := c.Update
		if !c.IsUpdate() || u == nil {
			t.Fatalf("cell %s is not an update cell", c.Name)
		}
		if u.Applied == 0 || u.LostUpdates != 0 || u.Refused != 0 || u.Duplicates != 0 || int64(u.Intended) != u.Applied+int64(u.Failed) {
			t.Errorf("%s: %+v: want every intended update applied once, none lost or refused", c.Name, *u)
		}
		if _, ok := c.Latency[resultsdir.MetricUpdate]; !ok {
			t.Errorf("%s: no update latency", c.Name)
		}
		var applied int64
		for _, iv := range c.Intervals {
			applied += iv.Granted
		}
		if len(c.Intervals) != 3 || applied != u.Applied { // 300ms holds three 100ms intervals
			t.Errorf("%s: %d intervals applying %d, want 3 applying the cell's %d", c.Name, len(c.Intervals), applied, u.Applied)
		}
	}
	for _, want := range []string{"single+unfenced", "single+fenced", "cas-version+", "lua-cas+"} {
		if !ways[want] {
			t.Errorf("no cell for %s (have %v)", want, ways)
		}
	}
	report, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil || !strings.Contains(string(report), "## The cost of one correct update") {
		t.Errorf("report.md lacks the update table (err %v)", err)
	}
	if !strings.Contains(stdout.String(), "retries/update") {
		t.Errorf("summary lacks the update table:\n%s", stdout.String())
	}
}
