package adr

import (
	"strings"
	"testing"
	"time"
)

// A mutex held half the time makes acquire wait for the holder: when one attempt keeps
// the budget and the acquire does not, the reason says it is the wait, with both
// figures; when the attempt breaks the budget too, or no attempt was recorded, it does not.
func TestABudgetBrokenByTheWaitSaysSo(t *testing.T) {
	w := loadWorkload(t, "testdata/efficiency.yaml")
	budget := w.SLO.Budget
	for _, c := range []struct {
		name     string
		attempt  time.Duration
		wantWait bool
	}{
		{"attempt within", budget / 50, true},
		{"attempt over too", 2 * budget, false},
		{"no attempt recorded", 0, false},
	} {
		o := &Option{Name: "single", Kind: Lock, Probe: "single",
			Cost: Cost{Measured: true, AtBudget: 26 * budget, AttemptAtBudget: c.attempt}}
		why := strings.Join(judge(w, o).Why, "; ")
		if !strings.Contains(why, "not shown within") {
			t.Fatalf("%s: the budget is not named: %s", c.name, why)
		}
		said := strings.Contains(why, "the wait for the holder of a key held "+percent(w.Occupancy.Busiest)+" of the time, not the lock service")
		if said != c.wantWait {
			t.Errorf("%s: says the wait %v, want %v: %s", c.name, said, c.wantWait, why)
		}
	}
}
