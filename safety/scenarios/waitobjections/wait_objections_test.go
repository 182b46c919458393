package waitobjections

import (
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
	"github.com/lockbench/lockbench/safety/results"
)

// The objections to WAIT: each objection loses a WAIT 1 lock and WAIT 2 keeps it
// (labtest.RunScenario asserts the variants' claims); and WAIT's cost follows the lag: WAIT 2
// waits out the paused replica, WAIT 1 does not.
func TestWaitObjections(t *testing.T) {
	t.Parallel()
	rep := labtest.RunIn(t, labtest.TestEnv(t, 2, lab.Params{"cost-lags": "0ms,50ms", "cost-samples": "10", "deployments": "2"}), "wait-objections", 3*time.Minute)
	p50 := map[string][]results.Point{}
	for _, s := range rep.Series {
		p50[s.Name] = s.Points
	}
	wait1, wait2 := p50["WAIT 1 latency p50"], p50["WAIT 2 latency p50"]
	if len(wait1) != 2 || len(wait2) != 2 {
		t.Fatalf("WAIT 1 p50 %v, WAIT 2 p50 %v: want points at no pause and a 50 ms pause", wait1, wait2)
	}
	paused := wait2[1].X // the pause as measured (Redis lifts it at a cron tick)
	if paused < 50 || wait2[1].Y < 50 {
		t.Errorf("WAIT 2 p50 %.2f ms with one replica paused %.1f ms: want it to wait the pause out", wait2[1].Y, paused)
	}
	// Compared within the run, never against a clock: WAIT 1 takes the other replica's
	// ack, so it must not wait the pause out as WAIT 2 does.
	if 2*wait1[1].Y >= wait2[1].Y {
		t.Errorf("WAIT 1 p50 %.2f ms against WAIT 2's %.2f ms with one replica paused %.1f ms: want WAIT 1 under half of it", wait1[1].Y, wait2[1].Y, paused)
	}
	ran := map[string]bool{}
	for _, v := range rep.Variants {
		ran[v.Name] = true
		if v.Measure == results.LostLocks && v.Tally.Judged < 1 {
			t.Errorf("%s: no judged trial", v.Name)
		}
	}
	// Every objection runs under WAIT 2 too, so each claim about WAIT 2 reads its data.
	for _, name := range []string{"a1-priority-wait2", "a2-acker-dies-wait2", "b-restart-empty-wait2"} {
		if !ran[name] {
			t.Errorf("%s did not run", name)
		}
	}
	for _, c := range results.WriteupClaims {
		if c.Scenario != "wait-objections" {
			continue
		}
		got := c.Judge([]*results.Report{rep})
		for _, ch := range got.Checks {
			if strings.HasPrefix(ch.Why, "not run") || strings.Contains(ch.Why, "not measured") {
				t.Errorf("%q: %s", ch.Check.Says, ch.Why)
			}
			t.Logf("%s: %s; %s", ch.Check.Says, ch.Verdict, ch.Seen)
		}
	}
}
