package sweep_test

import (
	"context"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/sweep"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// A run with server valkey measures on valkey-server and records it twice: the binary's
// version line in the environment, and what the running master answered per strategy.
func TestValkeyRunRecordsWhichServerRan(t *testing.T) {
	bin := testenv.RequireValkey(t)
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	version := regexp.MustCompile(`\bv=(\S+)`).FindStringSubmatch(string(out))
	if version == nil {
		t.Fatalf("%s --version = %q: no v= field", bin, out)
	}
	cfg := sweep.Config{
		Duration: sweep.Duration(2 * time.Second), Seed: 3, Server: "valkey", // a loaded machine still grants
		Sweeps: []sweep.Sweep{{Strategies: []string{"single"}, Clients: []int{2}, Keys: []string{"1"}}},
	}
	cells, err := cfg.Cells()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	run := &resultsdir.Run{Environment: sweep.Environment(cfg, []string{"test"})}
	if err := (&sweep.Runner{Config: cfg, Out: dir, Run: run, Observer: &quietObserver{}}).Execute(context.Background(), cells); err != nil {
		t.Fatal(err)
	}
	back, err := resultsdir.ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Environment.RedisServer; !strings.HasPrefix(got, "Valkey server v="+version[1]) {
		t.Errorf("environment server = %q, want valkey-server's own line", got)
	}
	if got, want := back.Environment.Topologies["single"], " on valkey "+version[1]; !strings.HasSuffix(got, want) {
		t.Errorf("environment topology of single = %q, want it to end %q", got, want)
	}
	if len(back.Cells) != 1 || back.Cells[0].Granted == 0 {
		t.Errorf("cells %+v: want one cell with grants", back.Cells)
	}
}
