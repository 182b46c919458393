// Package labtest runs scenarios on real servers for the scenario packages' tests and
// asserts what every run must show: each variant judged, each claim holding, a report
// that survives results.json.
package labtest

import (
	"context"
	"fmt"
	"iter"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

func init() { redisconn.SilenceClientLogs() }

// TestEnv runs scenarios on real servers; every topology is closed when t ends.
func TestEnv(t testing.TB, trials int, params lab.Params) *lab.Env {
	t.Helper()
	testenv.RequireRedis(t)
	return &lab.Env{
		Trials: trials,
		Seed:   1,
		Params: params,
		OutDir: t.TempDir(),
		Start: func(ctx context.Context, spec backend.Spec) (topologies.Topology, error) {
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
		Partitions: func(spec backend.Spec) error { return topologies.CanPartitionOn("", spec.Kind) },
		Logf:       t.Logf,
	}
}

// RunScenario runs name and asserts, for every variant, that some trial was judged
// and that every claim the variant makes holds over its judged trials. Variants are
// never looked up by name: a renamed variant keeps its claims.
func RunScenario(t *testing.T, name string, trials int, params lab.Params) *results.Report {
	t.Helper()
	return RunIn(t, TestEnv(t, trials, params), name, 4*time.Minute)
}

// Params are the params the scenario registered as name declares.
func Params(t testing.TB, name string) []lab.Param {
	t.Helper()
	s, err := lab.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return s.Params()
}

// RunIn runs name in env and asserts its claims (see RunScenario).
func RunIn(t *testing.T, env *lab.Env, name string, limit time.Duration) *results.Report {
	t.Helper()
	s, err := lab.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	rep, err := lab.Run(ctx, s, env)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	t.Logf("\n%s", rep.Table())
	AssertClaims(t, rep)
	RoundTrip(t, rep)
	return rep
}

// AssertClaims fails every variant with no judged trial or a claim that does not hold.
func AssertClaims(t *testing.T, rep *results.Report) {
	t.Helper()
	failures, rates := ClaimFailures(rep)
	for _, r := range rates {
		t.Log(r)
	}
	for _, f := range failures {
		t.Error(f)
	}
}

// ClaimFailures says what AssertClaims fails, and the rates it only reports: a natural
// variant's "some" claims, since whether a race the scheduler runs was hit in a few
// trials is the machine's load, not the lock's behaviour.
func ClaimFailures(rep *results.Report) (failures, rates []string) {
	for _, v := range rep.Variants {
		if v.Tally.Judged == 0 {
			failures = append(failures, fmt.Sprintf("%s/%s: no trial judged (%d fault not produced, %d not granted, "+
				"errors %s; notes %v)", rep.Scenario, v.Name, v.Tally.FaultNotProduced, v.Tally.NotGranted,
				v.Tally.ErrorsString(), v.Notes))
			continue
		}
		for _, c := range v.Claims {
			ok, why := c.Check(v.Tally)
			switch {
			case v.Natural && c.Want == results.Some:
				rates = append(rates, fmt.Sprintf("%s/%s: claim %s is a natural rate, not asserted: held %v, %d of %d "+
					"judged trials broke", rep.Scenario, v.Name, c, ok, v.Tally.Broke[c.Measure], v.Tally.Judged))
			case !ok:
				failures = append(failures, fmt.Sprintf("%s/%s: claim %s failed over %d judged trials: %d broke, sum %d %s",
					rep.Scenario, v.Name, c, v.Tally.Judged, v.Tally.Broke[c.Measure], v.Tally.Sums[c.Measure], why))
			}
		}
		for _, tr := range v.Trials {
			if tr.Outcome == results.Judged && len(tr.Proof) == 0 {
				failures = append(failures, fmt.Sprintf("%s/%s trial %d: judged without a proof", rep.Scenario, v.Name,
					tr.N))
			}
		}
	}
	return failures, rates
}

// RoundTrip checks the report survives results.json.
func RoundTrip(t *testing.T, rep *results.Report) {
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

// ContainerEnv is TestEnv on the container provider: the partition scenarios need nodes
// with networks of their own. It skips (fails under CI=true) where no engine answers.
// It starts every kind with the container family's member for it (a cluster's is
// rediscluster-container, once linked).
func ContainerEnv(t *testing.T, trials int, params lab.Params) *lab.Env {
	t.Helper()
	env := TestEnv(t, trials, params)
	p, err := topologies.ProviderNamed("container")
	if err != nil {
		t.Fatal(err)
	}
	if a, ok := p.(topologies.Available); ok {
		if err := a.Available(context.Background()); err != nil {
			testenv.MissingTool(t, err)
		}
	}
	env.Start = func(ctx context.Context, spec backend.Spec) (topologies.Topology, error) {
		topo, err := p.Start(ctx, spec)
		if err == nil {
			t.Cleanup(func() {
				if err := topo.Close(); err != nil {
					t.Errorf("close %s topology: %v", spec.Kind, err)
				}
			})
		}
		return topo, err
	}
	env.Partitions = func(spec backend.Spec) error { return topologies.CanPartitionOn("container", spec.Kind) }
	return env
}

// Judged yields every judged trial of rep with its variant: what a test may read a
// proof or a measure from.
func Judged(rep *results.Report) iter.Seq2[*results.Variant, results.Trial] {
	return func(yield func(*results.Variant, results.Trial) bool) {
		for _, v := range rep.Variants {
			for _, tr := range v.Trials {
				if tr.Outcome == results.Judged && !yield(v, tr) {
					return
				}
			}
		}
	}
}
