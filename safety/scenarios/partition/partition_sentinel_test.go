package partition

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
)

// Two masters grant the lock while the old one is cut off: labtest.RunIn asserts the claims
// (A and B inside together in every judged trial; a window after the promotion with no
// guard and with max-lag 10 s). Here: each judged trial proved the promotion, the cut
// and B's grant; min-replicas ended the window by NOREPLICAS during the cut, no guard
// only by the demotion after the heal, a longer window. Max-lag 1 s and 5 s are left to
// the CLI: at 1 s, at load 20, the replicas' once-a-second acknowledgements lagged past
// it and the master refused A's first grant before any cut; at 5 s a promotion that took
// 4.3 s came after the old master's first NOREPLICAS, no window. A's 60 s lease outlasts
// the promotion (at 5 s, in a quiet fresh-clone run, B entered 3.7 s after it ended; at
// 15 s a fresh-clone CI's engine, four times slower, failed the test), and nothing waits
// it out; a promotion is waited for up to a minute.
func TestSentinelSplitBrain(t *testing.T) {
	t.Parallel()
	env := labtest.ContainerEnv(t, 1, lab.Params{"max-lags": "10s", "ttl": "60s", "promotion-timeout": "1m"})
	rep := labtest.RunIn(t, env, "sentinel-split-brain", 15*time.Minute)
	window := map[string]float64{}
	for _, v := range rep.Variants {
		guarded := v.Params["min_replicas_to_write"] != "0"
		for _, tr := range v.Trials {
			if tr.Outcome != results.Judged {
				continue
			}
			for _, want := range []string{"promoted", "the cut: ", "B granted on the new master"} {
				if !hasProof(tr, want) {
					t.Errorf("%s trial %d judged on %q: want a proof with %q", v.Name, tr.N, tr.Proof, want)
				}
			}
			_, cutRefused := tr.Inputs["refused_after_cut_ms"]
			_, demoted := tr.Inputs["demoted_after_heal_ms"]
			switch {
			case guarded && (tr.Inputs["ended_by_noreplicas"] != 1 || !cutRefused):
				t.Errorf("%s trial %d: inputs %v: want the window ended by NOREPLICAS while the cut held", v.Name, tr.N, tr.Inputs)
			case !guarded && !demoted:
				t.Errorf("%s trial %d: inputs %v: want the window ended by the demotion after the heal", v.Name, tr.N, tr.Inputs)
			}
			window[v.Name] = max(window[v.Name], tr.WindowMs)
		}
	}
	order := []string{"min-replicas-0", "min-replicas-1-max-lag-10s"}
	for i := 1; i < len(order); i++ {
		if !(window[order[i-1]] > window[order[i]]) {
			t.Errorf("window %s %.0f ms, %s %.0f ms: want the first longer (windows %v)", order[i-1], window[order[i-1]], order[i], window[order[i]], window)
		}
	}
}

func hasProof(tr results.Trial, part string) bool {
	for _, p := range tr.Proof {
		if strings.Contains(p, part) {
			return true
		}
	}
	return false
}

// A provider whose nodes share the host's loopback cannot partition: every partition
// scenario refuses it, naming the provider, before it starts any server.
func TestPartitionScenariosRefuseProcessProvider(t *testing.T) {
	t.Parallel()
	for name, params := range map[string]lab.Params{
		"sentinel-split-brain": {"min-replicas": "0"},
		"cluster-split-brain":  {"modes": "none", "node-timeouts": "500ms"},
		"redlock-partition":    nil,
		"consensus-partition":  nil,
	} {
		s, err := lab.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		env := labtest.TestEnv(t, 1, params)
		started := 0
		env.Start = func(context.Context, backend.Spec) (topologies.Topology, error) {
			started++
			return nil, errors.New("must not start")
		}
		rep, err := lab.Run(context.Background(), s, env)
		if !errors.Is(err, lab.ErrNeedsPartitions) || !strings.Contains(err.Error(), "cannot partition") || !strings.Contains(err.Error(), "process") {
			t.Errorf("%s on processes: %v, want ErrNeedsPartitions saying provider process cannot partition", name, err)
		}
		if rep != nil && len(rep.Variants) > 0 {
			t.Errorf("%s on processes ran %d variants", name, len(rep.Variants))
		}
		if started > 0 {
			t.Errorf("%s on processes started %d deployments before refusing", name, started)
		}
	}
}

// min-replicas-max-lag counts whole seconds: a max-lag that is not one is refused
// before any server starts.
func TestSentinelSplitBrainMaxLagWholeSeconds(t *testing.T) {
	t.Parallel()
	started := false
	env := &lab.Env{Trials: 1, Params: lab.Params{"max-lags": "1500ms"}, Start: func(context.Context, backend.Spec) (topologies.Topology, error) {
		started = true
		return nil, errors.New("must not start")
	}}
	s, _ := lab.Lookup("sentinel-split-brain")
	var pe *lab.ParamError
	if _, err := lab.Run(context.Background(), s, env); !errors.As(err, &pe) || pe.Name != "max-lags" {
		t.Errorf("max-lags=1500ms: %v, want a *ParamError naming max-lags", err)
	}
	if started {
		t.Error("a topology was started despite a bad max-lag")
	}
}

// sentinel-split-brain takes its store by what the kind declares, not by the name
// sentinel, and starts that store's deployment: for sentinel, the one it always started.
func TestSentinelSplitBrainTakesAFailoverStoreByCapability(t *testing.T) {
	t.Parallel()
	strategies := labtest.Params(t, "sentinel-split-brain")[0]
	if strategies.Name != "strategies" || strategies.Default != "sentinel" {
		t.Fatalf("first param is %s=%s, want strategies=sentinel", strategies.Name, strategies.Default)
	}
	for _, bad := range []string{"single", "wait", "redlock", "cluster", "etcd-3"} {
		if _, want := strategies.Parse(bad); !strings.Contains(want, "sentinel") || strings.Contains(want, bad) {
			t.Errorf("%s: want %q, which should name sentinel and not %s", bad, want, bad)
		}
	}
	v, want := strategies.Parse(strategies.Default)
	if want != "" {
		t.Fatalf("sentinel refused: want %s", want)
	}
	c := splitBrainConfig{store: v.([]lab.Store)[0].(lab.Failover), downAfter: 400 * time.Millisecond}
	got := c.spec(sentinelSplitBrain{}.variant(1, 5*time.Second))
	wanted := backend.Spec{Kind: topologies.Sentinel, Replicas: 2, DownAfter: 400 * time.Millisecond, FailoverTimeout: 1500 * time.Millisecond,
		ExtraConfig: []string{"repl-ping-replica-period 1", "repl-timeout 7", "min-replicas-to-write 1", "min-replicas-max-lag 5"}}
	if !reflect.DeepEqual(got, wanted) {
		t.Errorf("sentinel's deployment:\n%+v, want\n%+v", got, wanted)
	}
}
