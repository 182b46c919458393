package sweep_test

import (
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/sweep"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// The appendfsync axis names its cells, keeps each policy's cells together (one
// deployment each) and refuses a policy Redis lacks (a store with no AOF: cmd/lockbench's bad input).
func TestAppendFsyncAxisNamesAndGroupsItsCells(t *testing.T) {
	cfg := sweep.Config{Duration: sweep.Duration(time.Second), Sweeps: []sweep.Sweep{{Strategies: []string{"single"},
		Clients: []int{1, 4}, Keys: []string{"1"}, AppendFsync: []string{"no", "always"}}}}
	cells, err := cfg.Cells()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cells {
		got = append(got, c.AppendFsync)
		if !strings.HasSuffix(c.Name(), "/appendfsync="+c.AppendFsync) {
			t.Errorf("cell %s: want the policy in its name", c.Name())
		}
	}
	if strings.Join(got, ",") != "no,no,always,always" {
		t.Errorf("policies in cell order %v, want each policy's cells together", got)
	}
	for _, bad := range []sweep.Sweep{
		{Strategies: []string{"single"}, AppendFsync: []string{"sometimes"}},
	} {
		_, err := sweep.Config{Duration: sweep.Duration(time.Second), Sweeps: []sweep.Sweep{bad}}.Cells()
		if err == nil || !strings.Contains(err.Error(), "appendfsync") || !strings.Contains(err.Error(), bad.Strategies[0]) {
			t.Errorf("%v: error %v, want one naming appendfsync and the strategy", bad, err)
		}
	}
}

// Each policy runs on a server configured with it, and results.json says which.
func TestAppendFsyncCellsRunOnServersWithThatPolicy(t *testing.T) {
	testenv.RequireRedis(t)
	// 2 s cells: a loaded machine must not leave one without a grant.
	cfg := sweep.Config{Duration: sweep.Duration(2 * time.Second), Seed: 3, Provider: "process",
		Sweeps: []sweep.Sweep{{Strategies: []string{"single"}, Clients: []int{1}, Keys: []string{"1"},
			AppendFsync: []string{"no", "always"}}}}
	back := executeAndReadBack(t, cfg)
	if len(back.Cells) != 2 {
		t.Fatalf("%d cells, want 2", len(back.Cells))
	}
	for _, c := range back.Cells {
		deployed := back.Environment.Topologies["single/appendfsync="+c.AppendFsync]
		if c.Granted == 0 || !strings.HasSuffix(deployed, ", appendfsync "+c.AppendFsync) {
			t.Errorf("cell %s: %d grants, policy %q, its server: %q", c.Name, c.Granted, c.AppendFsync, deployed)
		}
	}
}
