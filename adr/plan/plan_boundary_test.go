package plan

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/adr"
	"github.com/lockbench/lockbench/adr/adrtest"
	"github.com/lockbench/lockbench/backend/backendtest"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/safety/results"
)

// --plan lists the boundary runs at each shipped workload's TTL and hold, sized by
// hand: TTL 30s - hold 50ms = 29.95s, so jumps of 0.8 x = 23.96s and 1.2 x = 35.94s;
// - hold 20ms = 29.98s: 23.984s and 35.976s. The pause boundary runs at the lab's TTLs
// 2 s and 4 s (30 s is past the longest the pause steps wait out), stopping after the
// hold scaled to the same share: 50 ms of 30 s is 3 ms of 2 s and 7 ms of 4 s; 20 ms
// is 1 ms and 3 ms.
// The efficiency workload's Redlock locks are sized by the quorum model (its shares
// planned); the correctness one's fenced Redlock is not (what reaches the data behind
// per-node counters has no model).
func TestPlanListsTheBoundaryRunsAtTheWorkloadsTTLAndHold(t *testing.T) {
	const quorumRun, redlockUnsized = "--scenario redlock-quorum --trials 20 --seed 1 --param strategies=redlock,redlock-failfast", "node_restart_empty sized to the workload for redlock"
	for _, c := range []struct {
		workload, hold, at2, at4, jumps, restart, notRestart string
	}{
		{"../../docs/adr-workload.yaml", "50ms", "3ms", "7ms", "23.96s and 35.94s", quorumRun, redlockUnsized},
		{"../../docs/adr-workload-correctness.yaml", "20ms", "1ms", "3ms", "23.984s and 35.976s", redlockUnsized, quorumRun},
	} {
		w := lockable(t, c.workload)
		text := MakePlan(w, c.workload, &adr.Inputs{}, "m").Text()
		for _, want := range []string{
			"--scenario pause-past-ttl --trials 3 --seed 1 --param strategies=",
			"--param ttl=2s --param mode=boundary --param pause-at=" + c.at2 + " --param boundary-factors=0.8,1.2 --param parallel=3 --out m/pause-boundary-2s",
			"--param ttl=4s --param mode=boundary --param pause-at=" + c.at4 + " --param boundary-factors=0.8,1.2 --param parallel=3 --out m/pause-boundary-4s",
			"--scenario single-clock-skew --trials 3 --seed 1 --param mode=boundary --param ttl=30s --param hold=" + c.hold + " --param boundary-factors=0.8,1.2 --out m/single-jump-boundary",
			"the master's clock jumps " + c.jumps,
			c.restart,
		} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: the plan lacks %q:\n%s", c.workload, want, text)
			}
		}
		if strings.Contains(text, c.notRestart) {
			t.Errorf("%s: the plan holds %q", c.workload, c.notRestart)
		}
		if strings.Contains(text, "no scenario pauses for just under the lease left") {
			t.Errorf("%s: the pause boundary is still said not to be runnable", c.workload)
		}
	}
}

// Both sides run at the workload's TTL and hold, 3 judged each, are had, not planned
// again; at another hold they are planned.
func TestPlanKeepsBoundaryRunsItHas(t *testing.T) {
	w := lockable(t, "../../docs/adr-workload.yaml")
	side := func(name, side, hold string, broke int) *results.Variant {
		v := adrtest.HandVariant(name, results.Violations, 3, broke)
		v.Params = map[string]string{"side": side, "ttl": "30s", "hold": hold, "jump": "x", "jump_factor": "y"}
		return v
	}
	jumps := adrtest.HandReport("single-clock-skew", side("jump-below-0.8x", "below", "50ms", 0), side("jump-above-1.2x", "above", "50ms", 3))
	jumps[0].Params = map[string]string{"mode": "boundary"}
	text := MakePlan(w, "w.yaml", &adr.Inputs{Safety: jumps}, "m").Text()
	if strings.Contains(text, "--scenario single-clock-skew") || !strings.Contains(text, "* single-master jump boundary at the workload's TTL and hold, 3 judged a side or more") {
		t.Errorf("a jump boundary the results have is planned again:\n%s", text)
	}
	jumps[0].Variants[0].Params["hold"], jumps[0].Variants[1].Params["hold"] = "100ms", "100ms"
	if text := MakePlan(w, "w.yaml", &adr.Inputs{Safety: jumps}, "m").Text(); !strings.Contains(text, "--scenario single-clock-skew") {
		t.Errorf("a jump boundary at another hold stands for the workload's:\n%s", text)
	}
}

// The boundary runs keep only the strategies whose servers grant the workload's TTL as
// asked, by each store's declared lease rule (etcd: whole seconds, at least 2 s;
// ZooKeeper: at least 2 ticks, at most a minute).
func TestBoundaryRunsOnlyWhereTheTTLIsGrantedAsAsked(t *testing.T) {
	all := []string{"etcd", "etcd-3", "single", "zookeeper"}
	for ttl, want := range map[time.Duration]string{
		30 * time.Second:        "etcd,etcd-3,single,zookeeper",
		2500 * time.Millisecond: "single,zookeeper",
		100 * time.Millisecond:  "single",
		2 * time.Minute:         "etcd,etcd-3,single",
	} {
		got := grantedAsAsked(ttl, slices.Clone(all))
		if strings.Join(got, ",") != want {
			t.Errorf("TTL %v: runs on %v, want %s", ttl, got, want)
		}
	}
}

// The quorum model's shares given for redlock are had; redlock-failfast's are planned.
func TestPlanMeasuresOnlyTheQuorumSharesItLacks(t *testing.T) {
	w := lockable(t, "../../docs/adr-workload.yaml")
	p := MakePlan(w, "w.yaml", &adr.Inputs{Safety: adrtest.Reports()}, "m")
	if !slices.Contains(p.Have, "grants on exactly a quorum of redlock, alone and racing") {
		t.Errorf("redlock's given shares are not had: %q", p.Have)
	}
	text := p.Text()
	if !strings.Contains(text, "--scenario redlock-quorum --trials 20 --seed 1 --param strategies=redlock-failfast --out m/redlock-quorum") {
		t.Errorf("redlock-failfast's shares are not planned alone:\n%s", text)
	}
}

// Redlock's jump boundary at the workload's TTL, 3 judged a side, is had; at another
// TTL, or with fewer judged, it is planned.
func TestPlanKeepsTheRedlockJumpBoundaryItHas(t *testing.T) {
	w := lockable(t, "../../docs/adr-workload.yaml")
	side := func(jump, ttl string, judged int) *results.Variant {
		v := adrtest.HandVariant("k=3/J="+jump, results.Violations, judged, 0)
		v.Params = map[string]string{"strategy": "redlock", "k": "3", "jump": jump, "ttl": ttl}
		return v
	}
	const step = "--scenario redlock-clock-jump --trials 3"
	for _, c := range []struct {
		name    string
		reports []*results.Report
		planned bool
	}{
		{"both sides at 30s", adrtest.HandReport("redlock-clock-jump", side("270ms", "30s", 3), side("330ms", "30s", 3)), false},
		{"one side short", adrtest.HandReport("redlock-clock-jump", side("270ms", "30s", 3), side("330ms", "30s", 2)), true},
		{"another TTL", adrtest.HandReport("redlock-clock-jump", side("270ms", "1s", 3), side("330ms", "1s", 3)), true},
	} {
		text := MakePlan(w, "w.yaml", &adr.Inputs{Safety: c.reports}, "m").Text()
		if strings.Contains(text, step) != c.planned {
			t.Errorf("%s: planned %v, want %v:\n%s", c.name, !c.planned, c.planned, text)
		}
	}
}

// The Redlock jump boundary is counted and run on the client a store declares awaits
// every independent master, by that declaration: a strategy the planner never names
// counts; redlock-failfast's trials, and a client of the same kind declaring nothing
// of its own, do not.
func TestPlanCountsTheRedlockJumpBoundaryByTheDeclaredClient(t *testing.T) {
	linked.Register(backendtest.QuorumStore("plan-test"))
	w := lockable(t, "../../docs/adr-workload.yaml")
	sides := func(strategy string) []*results.Report {
		var vs []*results.Variant
		for _, jump := range []string{"270ms", "330ms"} {
			v := adrtest.HandVariant(strategy+"/k=3/J="+jump, results.Violations, 3, 0)
			v.Params = map[string]string{"strategy": strategy, "k": "3", "jump": jump, "ttl": "30s"}
			vs = append(vs, v)
		}
		return adrtest.HandReport("redlock-clock-jump", vs...)
	}
	const step = "--scenario redlock-clock-jump --trials 3 --seed 1 --param strategies=redlock --param k=3"
	for _, c := range []struct {
		strategy string
		planned  bool
	}{{"plan-test-waits", false}, {"redlock", false}, {"redlock-failfast", true}, {"plan-test-fast", true}} {
		text := MakePlan(w, "w.yaml", &adr.Inputs{Safety: sides(c.strategy)}, "m").Text()
		if strings.Contains(text, step) != c.planned {
			t.Errorf("%s's trials: planned %v, want %v:\n%s", c.strategy, !c.planned, c.planned, text)
		}
	}
}
