package safety

import (
	"context"
	"errors"
	"testing"

	_ "github.com/lockbench/lockbench/locks/etcdlock" // registers the etcd strategies and provider
	"github.com/lockbench/lockbench/topologies"
)

func TestEtcdPausePastTTL(t *testing.T) {
	rep := runScenario(t, "etcd-pause-past-ttl", 1, nil)
	for _, v := range rep.Variants {
		switch v.Name {
		case "etcd-unfenced":
			if v.StaleAccepted == 0 {
				t.Errorf("%s: no stale write accepted by the unfenced resource", v.Name)
			}
		case "etcd-revision-fenced":
			if v.Violations == 0 {
				t.Errorf("%s: no overlap: consensus alone should not prevent it", v.Name)
			}
			if v.StaleRejected == 0 {
				t.Errorf("%s: no stale write rejected: the revision fence was never tested", v.Name)
			}
		}
	}
}

func TestEtcdLeaderKill(t *testing.T) {
	rep := runScenario(t, "etcd-leader-kill", 1, nil)
	for _, v := range rep.Variants {
		switch v.Name {
		case "etcd-3-leader-kill":
			if v.ReissuedTokens != 0 || v.StaleAccepted != 0 || v.FenceViolations != 0 {
				t.Errorf("%s: fences went backwards across a leader change: %d reissued, %d stale accepted", v.Name, v.ReissuedTokens, v.StaleAccepted)
			}
		case "etcd-lone-member-disk-loss":
			if v.Violations == 0 {
				t.Errorf("%s: B never overlapped A although the only member forgot the lock", v.Name)
			}
		}
	}
}

func TestEtcdScenarioParamsRefusedBeforeStart(t *testing.T) {
	started := false
	env := &Env{Trials: 1, Start: func(context.Context, topologies.Spec) (topologies.Topology, error) {
		started = true
		return nil, errors.New("must not start")
	}}
	for name, params := range map[string]Params{
		"etcd-pause-past-ttl":   {"ttl": "2s", "pause": "1s"},
		"etcd-leader-kill":      {"ttl": "1s"},
		"etcd-fence-regression": {"election-timeout": "0s"},
	} {
		s, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		env.Params = params
		_, err = s.Run(context.Background(), env)
		var pe *ParamError
		if !errors.As(err, &pe) {
			t.Errorf("%s with %v: %v, want a *ParamError", name, params, err)
		}
	}
	if started {
		t.Error("a topology was started despite bad params")
	}
}

func TestEtcdFenceRegression(t *testing.T) {
	rep := runScenario(t, "etcd-fence-regression", 1, nil)
	for _, v := range rep.Variants {
		if v.HonestRejected != 0 || v.Diverged != 0 || v.StaleAccepted != 0 {
			t.Errorf("%s: %d honest writes refused, %d diverged, %d stale accepted: raft lost a fence", v.Name, v.HonestRejected, v.Diverged, v.StaleAccepted)
		}
	}
}
