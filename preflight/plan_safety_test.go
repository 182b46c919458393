package preflight_test

import (
	"testing"

	_ "github.com/lockbench/lockbench/backends/all" // every store, as cmd/lockbench registers them
	"github.com/lockbench/lockbench/preflight"
	"github.com/lockbench/lockbench/safety/lab"
	_ "github.com/lockbench/lockbench/safety/scenarios/all"
	"github.com/lockbench/lockbench/topologies"
)

// fakedClocks are the strategies (or "" for a fixed kind) whose topology the needs run
// with faked clocks.
func fakedClocks(t *testing.T, scenario string, params lab.Params) map[string]bool {
	t.Helper()
	s, err := lab.Lookup(scenario)
	if err != nil {
		t.Fatal(err)
	}
	needs, err := preflight.ForScenarios([]lab.Scenario{s}, params)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, n := range needs {
		if n.Clocks {
			out[n.Strategy] = true
		}
	}
	return out
}

// The scenario says what it starts: lost-updates fakes a lone master's clock only when
// its clock-jump break runs, and the rows' PostgreSQL always.
func TestLostUpdatesFakesClocksOnlyForItsClockJump(t *testing.T) {
	if got := fakedClocks(t, "lost-updates", lab.Params{"breaks": "pause", "strategies": "single"}); len(got) != 0 {
		t.Errorf("pause on single fakes clocks: %v", got)
	}
	got := fakedClocks(t, "lost-updates", lab.Params{"breaks": "pause,clock-jump", "strategies": "single,etcd"})
	if !got["single"] || got["etcd"] || len(got) != 1 {
		t.Errorf("clock-jump on single, pause on etcd: faked %v, want single's alone", got)
	}
	if got := fakedClocks(t, "single-clock-skew", nil); !got[""] {
		t.Errorf("single-clock-skew: faked %v, want its single master's", got)
	}
	s, _ := lab.Lookup("lost-updates")
	needs, err := preflight.ForScenarios([]lab.Scenario{s}, lab.Params{"breaks": "pause", "strategies": "single"})
	if err != nil {
		t.Fatal(err)
	}
	var postgres bool
	for _, n := range needs {
		postgres = postgres || (n.Kind == topologies.Postgres && n.Strategy == "")
	}
	if !postgres {
		t.Errorf("lost-updates needs %v: no PostgreSQL for the rows", needs)
	}
}
