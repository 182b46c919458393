package clock

import (
	"context"
	"testing"
	"time"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
	"github.com/lockbench/lockbench/safety/results"
)

// rueidislock on a redis-server whose clock runs 6 s ahead: every variant's claim holds
// (SET PXAT lets B in at once, FallbackSETPX until the first push, and only caching
// tells A in time), each trial judged on its clock and its key read back.
func TestRueidislockClockBehind(t *testing.T) {
	t.Parallel()
	rep := labtest.RunIn(t, providerEnv(t, "process", nil), "rueidislock-clock-behind", 3*time.Minute)
	if len(rep.Variants) != 6 {
		t.Fatalf("%d variants, want 6 (two strategies, three clocks each)", len(rep.Variants))
	}
	for _, v := range rep.Variants {
		for _, tr := range v.Trials {
			if _, ok := tr.Inputs["a_key_pttl_ms"]; tr.Outcome == results.Judged && !ok {
				t.Errorf("%s trial %d: judged without A's key read back", v.Name, tr.N)
			}
		}
	}
}

// A variant that expects the server's clock ahead, run on a server with a true clock,
// is not judged: the clock read back refuses it before any lock is taken.
func TestRueidislockClockBehindJudgesOnlyAClockItRead(t *testing.T) {
	t.Parallel()
	env := providerEnv(t, "process", nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	topo, err := env.StartTopology(ctx, rueidisSpec(0))
	if err != nil {
		t.Fatal(err)
	}
	defer topo.Close()
	s := rueidisClockBehind{}
	for _, v := range rueidisVariants(rueidisUncached, 6*time.Second)[1:] {
		if err := env.RunTrial(ctx, "rueidislock-clock-behind", v.Variant.Variant, 0, func(ctx context.Context, tr *lab.Trial) error {
			return s.trial(ctx, topo.Masters()[0], v, tr)
		}); err != nil {
			t.Fatal(err)
		}
		tr := v.Trials[0]
		t.Logf("%s: %s: %s", v.Name, tr.Outcome, tr.Message)
		if tr.Outcome != results.FaultNotProduced {
			t.Errorf("%s on a true clock: %s (%s), want %s", v.Name, tr.Outcome, tr.Message, results.FaultNotProduced)
		}
	}
}
