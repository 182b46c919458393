package lostupdates

import (
	"slices"
	"testing"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
)

// planOf is which strategies each break runs on, and whether each has a lock fence,
// for params given as a user would.
func planOf(t *testing.T, params lab.Params) (map[string][]string, map[string]bool) {
	t.Helper()
	s := lostUpdates{}
	values, err := lab.Parse("lost-updates", labtest.Params(t, "lost-updates"), params)
	if err != nil {
		t.Fatal(err)
	}
	plans, _, err := s.plan(&lab.Env{Params: params}, values)
	if err != nil {
		t.Fatalf("%v: %v", params, err)
	}
	runs, fenced := map[string][]string{}, map[string]bool{}
	for _, p := range plans {
		runs[p.brk.name] = append(runs[p.brk.name], p.strategy)
		for _, v := range p.variants {
			fenced[p.strategy] = v.lockFence
		}
	}
	return runs, fenced
}

// TestBreaksRunOnTheStoresTheirCapabilitiesFit: the defaults run each break on the
// stores they ran on when each break named its own (pause on the lone authorities,
// failover on sentinel, redlock-restart on redlock, clock-jump on the lone master);
// named strategies run on every break whose capabilities they have.
func TestBreaksRunOnTheStoresTheirCapabilitiesFit(t *testing.T) {
	t.Parallel()
	runs, fenced := planOf(t, lab.Params{})
	want := map[string][]string{
		"pause":           {"single", "etcd", "zookeeper", pgAdvisory},
		"failover":        {"sentinel"},
		"redlock-restart": {"redlock"},
		"clock-jump":      {"single"},
	}
	for brk, strategies := range want {
		if !slices.Equal(runs[brk], strategies) {
			t.Errorf("default %s runs on %v, want %v", brk, runs[brk], strategies)
		}
	}
	for strategy, want := range map[string]bool{"single": true, "etcd": true, "zookeeper": true, pgAdvisory: true, "sentinel": true, "redlock": false} {
		if fenced[strategy] != want {
			t.Errorf("%s: lock fence %v, want %v (Redlock's counts on one node only)", strategy, fenced[strategy], want)
		}
	}

	runs, _ = planOf(t, lab.Params{"strategies": "cluster,redlock-failfast,etcd-3"})
	want = map[string][]string{"pause": {"etcd-3"}, "failover": {"cluster"}, "redlock-restart": {"redlock-failfast"}}
	for brk, strategies := range want {
		if !slices.Equal(runs[brk], strategies) {
			t.Errorf("named: %s runs on %v, want %v", brk, runs[brk], strategies)
		}
	}
	if len(runs["clock-jump"]) != 0 {
		t.Errorf("clock-jump runs on %v: none of them is a lone Redis master", runs["clock-jump"])
	}
}

// TestClusterWaitWritesWithItsFence: cluster-wait's fenced form numbers every grant in
// the key's slot, so its fenced guards are variants and write with its token.
func TestClusterWaitWritesWithItsFence(t *testing.T) {
	t.Parallel()
	runs, fenced := planOf(t, lab.Params{"strategies": "cluster-wait", "breaks": "failover"})
	if !slices.Equal(runs["failover"], []string{"cluster-wait"}) {
		t.Fatalf("failover runs on %v, want cluster-wait", runs["failover"])
	}
	if !fenced["cluster-wait"] {
		t.Error("cluster-wait: no lock fence, but its fenced form numbers every grant")
	}
}
