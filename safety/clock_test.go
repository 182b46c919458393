package safety

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/clocks/faketime"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/topologies"
	_ "github.com/lockbench/lockbench/topologies/embedded"
)

// providerEnv runs scenarios on the named provider; the process one needs redis-server,
// libfaketime and gcc (missing: skip, or fail under CI=true).
func providerEnv(t *testing.T, provider string, params Params) *Env {
	t.Helper()
	if provider == "process" {
		testenv.RequireRedis(t)
		if _, err := faketime.Library(); err != nil {
			testenv.MissingTool(t, err)
		}
		if _, err := faketime.Preload(); errors.Is(err, faketime.ErrNoCompiler) {
			testenv.MissingTool(t, err)
		}
	}
	p, err := topologies.ProviderNamed(provider)
	if err != nil {
		t.Fatal(err)
	}
	return &Env{
		Trials: 1,
		Seed:   1,
		Params: params,
		OutDir: t.TempDir(), // violating histories get porcupine pages: their names must be files
		Start: func(ctx context.Context, spec topologies.Spec) (topologies.Topology, error) {
			topo, err := p.Start(ctx, spec)
			if err == nil {
				t.Cleanup(func() { topo.Close() })
			}
			return topo, err
		},
		Logf: t.Logf,
	}
}

// runClockScenario runs name on provider and checks every variant goes the way the
// model said it would, where the model leaves no doubt.
func runClockScenario(t *testing.T, provider, name string, params Params) *Report {
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
	rep, err := s.Run(ctx, providerEnv(t, provider, params))
	if err != nil {
		t.Fatalf("%s on %s: %v", name, provider, err)
	}
	t.Logf("\n%s", rep.Table())
	breaks, holds := 0, 0
	for _, v := range rep.Variants {
		if v.Judged == 0 {
			t.Errorf("%s/%s: no trial judged", name, v.Name)
			continue
		}
		switch v.Expect {
		case ExpectBreaks:
			breaks++
			if v.Violations == 0 {
				t.Errorf("%s/%s on %s: no violation in %d trials, the model says it breaks (%v)", name, v.Name, provider, v.Judged, v.Notes)
			}
		case ExpectHolds:
			holds++
			if v.Violations != 0 {
				t.Errorf("%s/%s on %s: %d violations, the model says it holds (%v)", name, v.Name, provider, v.Violations, v.Notes)
			}
		}
	}
	if breaks == 0 || holds == 0 {
		t.Errorf("%s: %d variants expected to break and %d to hold: the test shows no direction", name, breaks, holds)
	}
	return rep
}

var clockScenarioParams = map[string]Params{
	"redlock-clock-jump": {"ttl": "300ms", "k": "2,3", "jumps": "2ms,100ms"},
	"redlock-clock-rate": {"ttl": "300ms", "k": "3", "rates": "1.005,1.02,1.2", "drifts": "0.01,0.05"},
	"redlock-kleppmann":  {"ttl": "300ms", "jump": "150ms"},
	"single-clock-skew":  {"ttl": "300ms", "jump": "100ms"},
}

func TestClockScenariosEmbedded(t *testing.T) {
	for name, params := range clockScenarioParams {
		t.Run(name, func(t *testing.T) { runClockScenario(t, "embedded", name, params) })
	}
}

func TestClockScenariosProcess(t *testing.T) {
	for name, params := range clockScenarioParams {
		t.Run(name, func(t *testing.T) { runClockScenario(t, "process", name, params) })
	}
}

// The measured boundary must exist where the model puts one and not where it puts none.
func TestSearchFindsTheJumpBoundaryOnlyForAQuorum(t *testing.T) {
	env := providerEnv(t, "embedded", nil)
	ttl := 300 * time.Millisecond
	for _, k := range []int{2, 3} {
		v, err := searchSmallest(context.Background(), env, "redlock-clock-jump", "search", 0, float64(ttl), float64(5*time.Millisecond),
			func(x float64) clockRace { return jumpRace(ttl, k, time.Duration(x)) },
			func(x float64) string { return time.Duration(x).String() })
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("k=%d: %v", k, v.Notes)
		measured := v.Params["measured_smallest"]
		if k == 2 && !strings.HasPrefix(measured, "none") {
			t.Errorf("k=2: a jump of %s broke a lock held on all five nodes", measured)
		}
		if k == 3 {
			if strings.HasPrefix(measured, "none") || strings.HasPrefix(v.Params["model_smallest"], "none") {
				t.Fatalf("k=3: measured %s, model %s: want a boundary from both", measured, v.Params["model_smallest"])
			}
			if d, err := time.ParseDuration(measured); err != nil || d < 3*time.Millisecond {
				t.Errorf("k=3: measured smallest jump %s is below the drift allowance (3ms): the validity should cover it", measured)
			}
		}
	}
}

func TestSentinelClockSkewProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("three failovers: about 20 s")
	}
	runClockScenario(t, "process", "sentinel-clock-skew", Params{"ttl": "10s", "offset": "30s"})
}

func TestSentinelClockSkewRefusesEmbedded(t *testing.T) {
	s, _ := Lookup("sentinel-clock-skew")
	if _, err := s.Run(context.Background(), providerEnv(t, "embedded", nil)); err == nil {
		t.Fatal("the embedded provider ran a sentinel scenario: it has no replication")
	}
}
