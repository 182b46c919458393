package lostupdates_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/safety/scenarios/lostupdates"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// runLostUpdates runs lost-updates with params on real Redis and PostgreSQL and
// asserts every claim of every variant (see labtest.RunScenario).
func runLostUpdates(t *testing.T, trials int, params lab.Params) *results.Report {
	t.Helper()
	testenv.RequirePostgres(t)
	rep := labtest.RunScenario(t, "lost-updates", trials, params)
	for _, v := range rep.Variants {
		if v.Tally.Judged < v.Tally.Trials {
			t.Logf("%s: %d of %d trials judged: %v", v.Name, v.Tally.Judged, v.Tally.Trials, v.Notes)
		}
	}
	return rep
}

// variantsOf are the report's variants by name, for the checks beyond the claims.
func variantsOf(rep *results.Report) map[string]*results.Variant {
	out := map[string]*results.Variant{}
	for _, v := range rep.Variants {
		out[v.Name] = v
	}
	return out
}

// TestLostUpdatesPause: A pauses past its lease on a single master, every guard. A 2 s
// lease: A's first change, whole, must end inside it (at load 60 one outlasted a 500 ms
// ZooKeeper session, and 200 ms left less room still).
func TestLostUpdatesPause(t *testing.T) {
	t.Parallel()
	rep := runLostUpdates(t, 2, lab.Params{"breaks": "pause", "strategies": "single", "fences": "lock", "ttl": "2s", "pause-factor": "1.5"})
	if len(rep.Variants) != len(lostupdates.AccountModes()) {
		t.Errorf("%d variants, want one per guard (%d)", len(rep.Variants), len(lostupdates.AccountModes()))
	}
}

// TestLostUpdatesFailover: the sentinel master fails over without the lock; the
// Redis INCR fence is reissued (B refused: a lost update), the sequence is not.
func TestLostUpdatesFailover(t *testing.T) {
	t.Parallel()
	rep := runLostUpdates(t, 2, lab.Params{"breaks": "failover", "guards": "fenced"})
	vs := variantsOf(rep)
	switch v := vs["failover/sentinel/lock/fenced"]; {
	case v == nil:
		t.Error("no failover/sentinel/lock/fenced variant: the claim it tests was not run")
	case v.Tally.Judged > 0 && v.Tally.Sums[results.ReissuedTokens] == 0:
		t.Errorf("%s: no reissued token in %d judged trials", v.Name, v.Tally.Judged)
	}
	if v := vs["failover/sentinel/pg-sequence/fenced"]; v == nil {
		t.Error("no failover/sentinel/pg-sequence/fenced variant")
	}
}

// TestLostUpdatesFailoverOnACluster: the key's master of a Redis Cluster dies with its
// replica lagging; cluster-fenced's INCR in the key's slot is reissued (B refused: a
// lost update), the sequence is not; the break runs on a cluster only when asked.
func TestLostUpdatesFailoverOnACluster(t *testing.T) {
	t.Parallel()
	rep := runLostUpdates(t, 2, lab.Params{"breaks": "failover", "strategies": "cluster", "guards": "fenced"})
	vs := variantsOf(rep)
	switch v := vs["failover/cluster/lock/fenced"]; {
	case v == nil:
		t.Error("no failover/cluster/lock/fenced variant")
	case v.Tally.Judged == 0 || v.Tally.Sums[results.ReissuedTokens] == 0:
		t.Errorf("%s: no reissued token in %d judged trials", v.Name, v.Tally.Judged)
	}
	if v := vs["failover/cluster/pg-sequence/fenced"]; v == nil || v.Tally.Judged == 0 {
		t.Errorf("failover/cluster/pg-sequence/fenced: %+v, want judged trials", v)
	}
	s, err := lab.Lookup("lost-updates")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range s.Params() {
		if p.Name == "strategies" && strings.Contains(p.Default, "cluster") {
			t.Errorf("the default strategies %q run a cluster: it is run on request", p.Default)
		}
	}
}

// TestLostUpdatesRedlockRestart: Redlock has no fence; read-modify-write loses B's
// change, fenced by the sequence refuses A's. The lease is 8 s (redsync gives a node 400 ms
// of it): at the rig's 2 s, in a fresh-clone CI at load 40, every one of B's attempts
// timed out on all five nodes and the fenced variant had no judged trial.
func TestLostUpdatesRedlockRestart(t *testing.T) {
	t.Parallel()
	rep := runLostUpdates(t, 2, lab.Params{"breaks": "redlock-restart", "guards": "read-modify-write,fenced",
		"ttl": "8s"})
	if vs := variantsOf(rep); vs["redlock-restart/redlock/lock/fenced"] != nil || vs["redlock-restart/redlock/lock/read-modify-write"] == nil {
		t.Errorf("variants %v: want lock/read-modify-write run and lock/fenced skipped (Redlock has no fence)", rep.Variants)
	}
}

// TestLostUpdatesClockJump: the master's clock jumps past the lease (libfaketime). The
// lease is 5 s: at the break's least, 1 s, under load 35 one trial's first change
// outlasted it and another's master showed its jump only after it ended.
func TestLostUpdatesClockJump(t *testing.T) {
	t.Parallel()
	testenv.RequireSkewedRedis(t)
	runLostUpdates(t, 2, lab.Params{"breaks": "clock-jump", "guards": "fenced,unfenced", "fences": "lock", "ttl": "5s"})
}

// TestLostUpdatesRefusesBadParams: a guard that needs a fence, asked for with a lock
// service that has none, and an unknown guard are *ParamErrors naming them, before
// anything starts.
func TestLostUpdatesRefusesBadParams(t *testing.T) {
	t.Parallel()
	s, err := lab.Lookup("lost-updates")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		params lab.Params
		name   string   // the param the error names
		says   []string // what its message names
	}{
		{lab.Params{"breaks": "redlock-restart", "guards": "fenced", "fences": "lock"}, "guards", []string{"fenced", "redlock"}},
		{lab.Params{"strategies": "redlock", "guards": "unfenced,check-then-write+outbox", "fences": "lock,pg-sequence"}, "guards", []string{"check-then-write+outbox", "redlock"}},
		{lab.Params{"guards": "fenced,fencd"}, "guards", []string{"fencd", "read-modify-write+outbox"}},
		{lab.Params{"breaks": "pause,shove"}, "breaks", []string{"shove", "clock-jump"}},
		{lab.Params{"fences": "revision"}, "fences", []string{"revision", "pg-sequence"}},
		{lab.Params{"breaks": "failover", "strategies": "single"}, "strategies", []string{"sentinel"}},
		{lab.Params{"breaks": "pause", "strategies": "single,redlock"}, "strategies", []string{"redlock"}},
	} {
		env := &lab.Env{Trials: 1, Params: c.params, Start: func(context.Context, backend.Spec) (topologies.Topology, error) {
			t.Errorf("%v started a topology", c.params)
			return nil, errors.New("no servers in this test")
		}}
		_, err := lab.Run(context.Background(), s, env)
		var pe *lab.ParamError
		if !errors.As(err, &pe) || pe.Name != c.name {
			t.Errorf("%v: %v, want a *ParamError naming %s", c.params, err, c.name)
			continue
		}
		for _, want := range c.says {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%v: %q does not name %s", c.params, err, want)
			}
		}
	}
	// Left to their defaults, the fences make no request: the fenceless pairs are
	// skipped, not refused (here with nothing to start, the run fails later, on Start).
	env := &lab.Env{Trials: 1, Params: lab.Params{"breaks": "redlock-restart", "guards": "fenced"}, Start: func(context.Context, backend.Spec) (topologies.Topology, error) {
		return nil, errors.New("no servers in this test")
	}}
	if _, err := lab.Run(context.Background(), s, env); errors.As(err, new(*lab.ParamError)) {
		t.Errorf("redlock-restart, fenced, default fences: %v, want the pg-sequence variant run", err)
	}
}

// TestLostUpdatesLockFree: with no lock, a pause between read and write loses no
// update for cas-version, unique-key or atomic; a redelivered change is applied twice
// by all but unique-key (the claims assert both).
func TestLostUpdatesLockFree(t *testing.T) {
	t.Parallel()
	rep := runLostUpdates(t, 2, lab.Params{"breaks": "pause,redelivery", "strategies": "cas-version,unique-key,atomic", "ttl": "100ms"})
	if len(rep.Variants) != 6 {
		t.Fatalf("%d variants, want 2 faults x 3 lock-free writers", len(rep.Variants))
	}
	for _, v := range rep.Variants {
		if v.Params["guard"] != "" || v.Params["fence"] != "none" {
			t.Errorf("%s: params %v: a lock-free writer has no guard and no fence", v.Name, v.Params)
		}
	}
}
