package failover

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backends/rediscluster"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
	"github.com/lockbench/lockbench/safety/results"
)

// rueidislock on a cluster: a name whose majority of keys sits on the master that fails
// over loses the lock, a name spread over three masters keeps it, unless its grant sat on
// exactly two keys (the third held by another client at the grant); each trial judged on
// the cut, the promotion and the keys read back on the promoted replica. Two trials a
// variant: a cluster here now and then promotes no replica within the minute
// (docs/cluster.md), a trial not judged.
func TestRueidislockClusterSpread(t *testing.T) {
	t.Parallel()
	// 10 trials of up to a minute's promotion each: 4 minutes ran out in a fresh-clone run.
	rep := labtest.RunIn(t, labtest.TestEnv(t, 2, lab.Params{}), "rueidislock-cluster-spread", 12*time.Minute)
	for _, v := range rep.Variants {
		for _, tr := range v.Trials {
			onKilled := tr.Inputs["keys_on_killed_master"]
			switch {
			case tr.Outcome != results.Judged:
			case v.Params["placement"] == spreadPlacement && onKilled != 1,
				v.Params["placement"] == sharedPlacement && onKilled < 2:
				t.Errorf("%s trial %d: %v of the name's keys on the killed master", v.Name, tr.N, onKilled)
			}
		}
	}
}

// A promoted replica that has the lock's keys (written back by the test hook) lost
// nothing: the trial is not judged, whatever B then does.
func TestRueidislockClusterSpreadJudgesOnlyKeysThePromotionLost(t *testing.T) {
	t.Parallel()
	tr := oneSpreadTrial(t, func(vs []spreadVariant) spreadVariant {
		v := vs[0]
		v.restoreKeys = true
		return v
	})
	if tr.Outcome != results.FaultNotProduced {
		t.Errorf("keys kept on the promoted replica: %s (%s), want %s", tr.Outcome, tr.Message,
			results.FaultNotProduced)
	}
}

// An exact-majority trial whose third key is taken again before B tries (the test hook,
// as if A had taken it) is not judged: A's grant no longer sits on exactly two keys.
func TestRueidislockExactMajorityJudgesOnlyAThirdKeyLeftFree(t *testing.T) {
	t.Parallel()
	tr := oneSpreadTrial(t, func(vs []spreadVariant) spreadVariant {
		v := vs[len(vs)-1]
		if !v.thirdHeld {
			t.Fatalf("the last variant, %s, is not the exact-majority one", v.Name)
		}
		v.retakeThird = true
		return v
	})
	// A cluster that promoted no replica within the minute is unjudged too, before the hook.
	named := strings.Contains(tr.Message, "third key") || strings.Contains(tr.Message, "no promotion")
	if tr.Outcome != results.FaultNotProduced || !named {
		t.Errorf("third key taken again: %s (%s), want %s naming it", tr.Outcome, tr.Message, results.FaultNotProduced)
	}
}

// oneSpreadTrial runs once the variant pick makes of the scenario's, on a cluster whose
// masters fail one after 5 s, and returns the trial.
func oneSpreadTrial(t *testing.T, pick func([]spreadVariant) spreadVariant) results.Trial {
	t.Helper()
	env := labtest.TestEnv(t, 1, nil)
	st, err := lab.StoreFor(rediscluster.StrategyRueidis)
	if err != nil {
		t.Fatal(err)
	}
	keyed := st.(lab.KeyedFailover)
	spec := keyed.Spec()
	spec.DownAfter = 5 * time.Second
	v := pick(spreadVariants(keyed, spec))
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	s := rueidisClusterSpread{}
	if err := env.RunTrial(ctx, "rueidislock-cluster-spread", v.Variant.Variant, 0, func(ctx context.Context, tr *lab.Trial) error {
		return s.trial(ctx, env, keyed, spec, v, tr, time.Minute)
	}); err != nil {
		t.Fatal(err)
	}
	tr := v.Trials[0]
	t.Logf("%s: %s", tr.Outcome, tr.Message)
	return tr
}
