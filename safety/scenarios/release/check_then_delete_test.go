package release

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
	"github.com/lockbench/lockbench/safety/results"
)

// TestCheckThenDelete: the paused GET-then-DEL always deletes B's lock and lets C in
// beside B; the Lua release never does, paused or under load; both load variants count
// locks cut short, so the write-up's claim compares them on counts. How often load
// hits the gap on its own is a rate (logged): a loaded run once counted no lock cut
// short, every victim's release returning only after its lease could have run out.
func TestCheckThenDelete(t *testing.T) {
	t.Parallel()
	// 3 s of load a trial: holds are serial at the 20 ms TTL (about 50 a second), and a
	// second of them hit the gap in 3 of 5 trials on this loaded machine.
	rep := labtest.RunScenario(t, "check-then-delete", 2, lab.Params{"load": "3s"})
	for _, c := range results.WriteupClaims {
		if c.Scenario != "check-then-delete" {
			continue
		}
		got := c.Judge([]*results.Report{rep})
		for _, ch := range got.Checks {
			if ch.Check.Kind != results.Fewer {
				continue
			}
			if strings.Contains(ch.Why, "not measured") || !strings.Contains(ch.Seen, "lua/load vs get-then-del/load: ") {
				t.Errorf("the load check reads no counts: %s (%s)", ch.Why, ch.Seen)
			}
			t.Logf("%s: %s %s", ch.Check.Says, ch.Verdict, ch.Seen)
		}
	}
}
