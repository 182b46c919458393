package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --plan on each shipped workload with no results: exit 0, the cells at its rate, hold,
// TTL and keys, the scenarios, and an estimated time for each step and in all.
func TestADRPlanForTheShippedWorkloads(t *testing.T) {
	t.Parallel()
	cases := []struct {
		workload string
		want     []string
	}{
		{adrExample, []string{
			"lockbench run --strategies ", "--clients 16 --keys 1 --hold 50ms --ttl 30s --load open --rate 10 --arrival poisson --duration 1m40s",
			"--scenario replication-lag --trials 5 --seed 1 --param rates=20 ",
			"--scenario pause-past-ttl --trials 3 --seed 1 --param strategies=", "--param ttl=2s --param pause-factor=1.5 --param parallel=3 --out m/pause-past-ttl",
			"--scenario redlock-clock-jump --trials 3 --seed 1 --param strategies=redlock --param k=3 --param ttl=30s --param jumps=270ms,330ms",
			"--scenario redlock-restart --trials 3",
			"--param ttl=2s --param mode=boundary --param pause-at=3ms --param boundary-factors=0.8,1.2 --param parallel=3 --out m/pause-boundary-2s",
			"--scenario single-clock-skew --trials 3 --seed 1 --param mode=boundary --param ttl=30s --param hold=50ms"}},
		{"../../docs/adr-workload-correctness.yaml", []string{
			"--clients 88 --keys 10000 --key-dist zipf:1 --hold 20ms --ttl 30s --load open --rate 200 --arrival poisson --duration 10s",
			"lockbench run --workload update --strategies cas-version,unique-key,atomic",
			"--param rates=400 ",
			// fence-regression's lag is the lab's (not sized): 3 trials for its count, not
			// the 2455 a bound within the budget would take.
			"--scenario fence-regression --trials 3 --seed 1 --param strategies=sentinel",
			"--scenario lost-updates --trials 3 ",
			"--param ttl=4s --param mode=boundary --param pause-at=3ms --param boundary-factors=0.8,1.2 --param parallel=3 --out m/pause-boundary-4s",
			"--scenario single-clock-skew --trials 3 --seed 1 --param mode=boundary --param ttl=30s --param hold=20ms"}},
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.workload), func(t *testing.T) {
			code, stdout, stderr := runLockbench("adr", "--workload", lockable(t, c.workload), "--plan", "--out", "m")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("the plan lacks %q:\n%s", w, stdout)
				}
			}
			steps := strings.Count(stdout, "\n   lockbench ")
			if est := strings.Count(stdout, "\n   estimated: "); steps == 0 || est != steps || strings.Contains(stdout, "estimated: unknown") {
				t.Errorf("%d commands, %d estimates (every step's time is measured):\n%s", steps, est, stdout)
			}
			if !strings.Contains(stdout, "Estimated in all: ") {
				t.Errorf("no total:\n%s", stdout)
			}
			if _, err := os.Stat("m"); !os.IsNotExist(err) {
				t.Fatalf("--plan wrote m: %v", err)
			}
		})
	}
}

// The plan leaves out what the given results have: the synthetic results' lag (up
// to 5000 writes/s) covers the efficiency workload's 20 writes/s.
func TestADRPlanLeavesOutWhatTheResultsHave(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := runLockbench("adr", "--workload", lockable(t, adrExample), "--plan", "--results", adrInputs(t))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Contains(stdout, "--scenario replication-lag") || !strings.Contains(stdout, "* replication lag at or above the workload's 20 writes/s") {
		t.Fatalf("the lag the results have is planned again:\n%s", stdout)
	}
	if !strings.Contains(stdout, "--out adr-measure/") {
		t.Fatalf("no default folder:\n%s", stdout)
	}
}

// A bad workload exits 2 naming the field, with --plan as without it.
func TestADRPlanBadWorkloadExitsTwoNamingTheField(t *testing.T) {
	t.Parallel()
	example, err := os.ReadFile(adrExample)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ from, to, field string }{
		{"title:", "colour: red\ntitle:", "colour"},
		{"    per_year: 4\n", "    per_year: -4\n", "faults.planned_failover.per_year"},
		{"hold: 50ms", "hold: soon", "hold"},
		{"lock_rate_per_second: 10 ", "lock_rate_per_second: 40 ", "keys"}, // 40/s x 50 ms on one key: u = 2
	}
	for _, c := range cases {
		text := strings.Replace(string(example), c.from, c.to, 1)
		if text == string(example) {
			t.Fatalf("%s: the case changed nothing", c.field)
		}
		wl := filepath.Join(t.TempDir(), "w.yaml")
		if err := os.WriteFile(wl, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runLockbench("adr", "--workload", wl, "--plan")
		if code != exitUsage || !strings.Contains(stderr, c.field) || stdout != "" {
			t.Errorf("%s: exit %d, stderr %q, stdout %q: want 2 naming it and no plan", c.field, code, stderr, stdout)
		}
	}
	if code, _, _ := runLockbench("adr", "--plan"); code != exitUsage {
		t.Errorf("--plan without --workload: exit %d", code)
	}
	if code, _, _ := runLockbench("adr", "--workload", adrExample, "--plan", "--results", t.TempDir()); code != exitUsage {
		t.Errorf("--plan with a folder that is not results: exit %d", code)
	}
}
