package safety

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

func init() { locks.SilenceClientLogs() }

// testEnv runs scenarios on real servers; every topology is closed when t ends.
func testEnv(t testing.TB, trials int, params Params) *Env {
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

// runScenario runs name and asserts, for every variant, that some trial was judged
// and that every claim the variant makes holds over its judged trials. Variants are
// never looked up by name: a renamed variant keeps its claims.
func runScenario(t *testing.T, name string, trials int, params Params) *results.Report {
	t.Helper()
	return runIn(t, testEnv(t, trials, params), name, 4*time.Minute)
}

// runIn runs name in env and asserts its claims (see runScenario).
func runIn(t *testing.T, env *Env, name string, limit time.Duration) *results.Report {
	t.Helper()
	s, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	rep, err := Run(ctx, s, env)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	t.Logf("\n%s", rep.Table())
	assertClaims(t, rep)
	roundTrip(t, rep)
	return rep
}

// assertClaims fails every variant with no judged trial or a claim that does not hold.
func assertClaims(t *testing.T, rep *results.Report) {
	t.Helper()
	for _, v := range rep.Variants {
		if v.Tally.Judged == 0 {
			t.Errorf("%s/%s: no trial judged (%d fault not produced, %d not granted, errors %s; notes %v)",
				rep.Scenario, v.Name, v.Tally.FaultNotProduced, v.Tally.NotGranted, v.Tally.ErrorsString(), v.Notes)
			continue
		}
		for _, c := range v.Claims {
			if ok, why := c.Check(v.Tally); !ok {
				t.Errorf("%s/%s: claim %s failed over %d judged trials: %d broke, sum %d %s", rep.Scenario, v.Name, c,
					v.Tally.Judged, v.Tally.Broke[c.Measure], v.Tally.Sums[c.Measure], why)
			}
		}
		for _, tr := range v.Trials {
			if tr.Outcome == results.Judged && len(tr.Proof) == 0 {
				t.Errorf("%s/%s trial %d: judged without a proof", rep.Scenario, v.Name, tr.N)
			}
		}
	}
}

// roundTrip checks the report survives results.json.
func roundTrip(t *testing.T, rep *results.Report) {
	t.Helper()
	dir := t.TempDir()
	if err := results.Write(dir, results.Results{Reports: []*results.Report{rep}}); err != nil {
		t.Fatal(err)
	}
	back, err := results.Read(dir)
	if err != nil || len(back.Reports) != 1 || len(back.Reports[0].Variants) != len(rep.Variants) {
		t.Errorf("results.json does not round-trip: %v", err)
	}
}

func TestSetNXExpire(t *testing.T)    { runScenario(t, "setnx-expire", 2, nil) }
func TestUnsafeRelease(t *testing.T)  { runScenario(t, "unsafe-release", 1, nil) }
func TestRedlockRestart(t *testing.T) { runScenario(t, "redlock-restart", 1, nil) }

// TestBadParamsStartNothing: every declared param of every scenario refuses a value
// that is not one, with a *ParamError naming it, before any server starts.
func TestBadParamsStartNothing(t *testing.T) {
	started := false
	env := &Env{Trials: 1, Start: func(context.Context, topologies.Spec) (topologies.Topology, error) {
		started = true
		return nil, errors.New("must not start")
	}}
	for _, name := range Names() {
		s, _ := Lookup(name)
		for _, p := range s.Params() {
			env.Params = Params{p.Name: "not-a-value"}
			_, err := Run(context.Background(), s, env)
			var pe *ParamError
			if !errors.As(err, &pe) || pe.Name != p.Name {
				t.Errorf("%s --param %s=not-a-value: %v, want a *ParamError naming it", name, p.Name, err)
			}
		}
	}
	// Cross-param checks come before anything starts too.
	for name, params := range map[string]Params{
		"etcd-leader-kill": {"ttl": "5s", "probe": "6s"},
	} {
		s, _ := Lookup(name)
		env.Params = params
		if _, err := Run(context.Background(), s, env); !errors.As(err, new(*ParamError)) {
			t.Errorf("%s with %v: %v, want a *ParamError", name, params, err)
		}
	}
	if started {
		t.Error("a topology was started despite bad params")
	}
}
