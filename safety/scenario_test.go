package safety

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/topologies"
)

func init() { locks.SilenceClientLogs() }

// testEnv runs scenarios on real servers; every topology is closed when t ends.
func testEnv(t *testing.T, trials int, params Params) *Env {
	t.Helper()
	testenv.RequireRedis(t)
	return &Env{
		Trials: trials,
		Seed:   1,
		Params: params,
		OutDir: t.TempDir(),
		Start: func(ctx context.Context, spec topologies.Spec) (topologies.Topology, error) {
			p, err := topologies.DefaultProvider(spec.Kind)
			if err != nil {
				return nil, err
			}
			topo, err := p.Start(ctx, spec)
			if err == nil {
				t.Cleanup(func() { topo.Close() })
			}
			return topo, err
		},
		Logf: t.Logf,
	}
}

// runScenario runs name and checks every variant's outcome goes the way its
// Expectation says: > 0 of its measure where the lock breaks, 0 where the fix holds.
func runScenario(t *testing.T, name string, trials int, params Params) *Report {
	t.Helper()
	s, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := params.CheckNames(s); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	env := testEnv(t, trials, params)
	rep, err := s.Run(ctx, env)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	t.Logf("\n%s", rep.Table())
	for _, v := range rep.Variants {
		if v.Judged == 0 {
			t.Errorf("%s/%s: no trial judged (%d without the fault, %d not granted): nothing shown", name, v.Name, v.FaultNotProduced, v.NotGranted)
			continue
		}
		got := v.Value(v.Measure)
		switch v.Expect {
		case ExpectBreaks:
			if got == 0 {
				t.Errorf("%s/%s: %s = 0 in %d judged trials, want > 0 (the lock should break)", name, v.Name, v.Measure, v.Judged)
			}
		case ExpectHolds:
			if got != 0 {
				t.Errorf("%s/%s: %s = %d in %d judged trials, want 0 (the fix should hold)", name, v.Name, v.Measure, got, v.Judged)
			}
		}
	}
	// The report must survive the trip through results.json.
	dir := t.TempDir()
	if err := WriteResults(dir, Results{Reports: []*Report{rep}}); err != nil {
		t.Fatal(err)
	}
	var back Results
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil || json.Unmarshal(b, &back) != nil || len(back.Reports) != 1 || len(back.Reports[0].Variants) != len(rep.Variants) {
		t.Errorf("results.json does not round-trip: %v", err)
	}
	return rep
}

func TestSetNXExpire(t *testing.T) {
	rep := runScenario(t, "setnx-expire", 2, nil)
	if v := rep.Variants[0]; v.Orphans != v.Judged {
		t.Errorf("setnx-then-expire: %d orphans in %d trials: every crash between the commands orphans the key", v.Orphans, v.Judged)
	}
}

func TestUnsafeRelease(t *testing.T) { runScenario(t, "unsafe-release", 1, nil) }

func TestPausePastTTL(t *testing.T) {
	rep := runScenario(t, "pause-past-ttl", 1, nil)
	for _, v := range rep.Variants {
		if (v.Name == "no-watchdog" || v.Name == "watchdog") && v.StaleAccepted == 0 {
			t.Errorf("%s: no stale write accepted by the unfenced resource", v.Name)
		}
		if v.Name == "no-watchdog-fenced" || v.Name == "watchdog-fenced" {
			if v.StaleRejected == 0 {
				t.Errorf("%s: no stale write rejected: the fenced resource was never tested", v.Name)
			}
		}
	}
}

func TestFailoverLoss(t *testing.T) {
	rep := runScenario(t, "failover-loss", 2, Params{"modes": "none,wait2,zombie", "delays": "0ms", "lag-max": "150ms", "wait-timeout": "2s"})
	if len(rep.Series) != 3 || len(rep.Series[0].Points) != 1 || len(rep.Series[1].Points) == 0 || len(rep.Series[2].Points) != 1 {
		t.Errorf("series %+v: want loss against delay for none and wait2, and against lag for none", rep.Series)
	}
	for _, v := range rep.Variants {
		if v.Name == "zombie" && v.WindowMs.N == 0 {
			t.Errorf("zombie: no window measured")
		}
	}
}

func TestFailoverLossLinkKill(t *testing.T) {
	rep := runScenario(t, "failover-loss", 1, Params{"modes": "none", "delays": "0ms", "cut": "link-kill"})
	if v := rep.Variants[0]; v.LostLocks != v.Judged {
		t.Errorf("link-kill: %d lost in %d judged trials: every grant the replicas never saw must be lost", v.LostLocks, v.Judged)
	}
}

func TestFenceRegression(t *testing.T) {
	rep := runScenario(t, "fence-regression", 1, nil)
	cut, control := rep.Variants[0], rep.Variants[1]
	if cut.HonestRejected == 0 || cut.Diverged == 0 {
		t.Errorf("replication-cut: %d honest writes rejected, %d diverged: want both harms > 0", cut.HonestRejected, cut.Diverged)
	}
	if control.HonestRejected != 0 || control.Diverged != 0 {
		t.Errorf("replicated: %d honest writes rejected, %d diverged: want 0", control.HonestRejected, control.Diverged)
	}
}

func TestRedlockRestart(t *testing.T) {
	rep := runScenario(t, "redlock-restart", 1, nil)
	for _, v := range rep.Variants {
		// Where A had stopped, B must get in: 0 violations then means the lock moved
		// on cleanly, not that nobody could lock. Where A still holds, B must not.
		wantB := v.Name == "restart-empty" || v.Name == "delayed-restart" || v.Name == "extend-plain"
		if got := v.SecondGranted > 0; got != wantB {
			t.Errorf("%s: B granted in %d trials, want granted=%v (notes %v)", v.Name, v.SecondGranted, wantB, v.Notes)
		}
		if len(v.Notes) > 0 {
			t.Errorf("%s: %v", v.Name, v.Notes)
		}
	}
}
