package clock

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/safety/results"
)

// A race is judged only when one of B's attempts began once a quorum was free and
// returned while A still believed it held; a B that was late says fault_not_produced.
func TestBWindowJudgesOnlyAttemptsInsideTheRace(t *testing.T) {
	t.Parallel()
	start := time.Unix(1000, 0)
	at := func(ms int) time.Time { return start.Add(time.Duration(ms) * time.Millisecond) }
	cases := []struct {
		name     string
		opens    time.Time // zero: the model has two holders impossible
		attempts [][3]int  // began, returned (ms after A's acquire began), granted (1)
		judged   bool
	}{
		{"refused in the window", at(250), [][3]int{{240, 245, 0}, {251, 254, 0}}, true},
		{"refused only before it opens", at(250), [][3]int{{200, 210, 0}, {240, 249, 0}}, false},
		{"granted before the model opens it", at(250), [][3]int{{20, 23, 1}}, true},
		{"begun inside, granted after A's validity", at(250), [][3]int{{270, 300, 1}}, false},
		{"late on a busy machine", at(250), [][3]int{{286, 330, 0}}, false},
		{"refused after an attempt longer than the window", at(250), [][3]int{{100, 260, 0}}, false},
		{"a window as short as an attempt", at(283), [][3]int{{280, 282, 0}, {282, 284, 0}}, true},
		{"holds: one refusal before the end", time.Time{}, [][3]int{{100, 120, 0}}, true},
		{"holds: no attempt returned in time", time.Time{}, [][3]int{{280, 400, 0}}, false},
	}
	for _, c := range cases {
		w := bWindow{opens: c.opens, closes: at(285)}
		for _, a := range c.attempts {
			w.saw(at(a[0]), at(a[1]), a[2] == 1)
		}
		err := w.missed(start)
		switch {
		case c.judged && err != nil:
			t.Errorf("%s: %v, want judged", c.name, err)
		case !c.judged && (err == nil || !strings.HasPrefix(err.Error(), "fault not produced: ")):
			t.Errorf("%s: %v, want fault_not_produced", c.name, err)
		case !c.judged && !strings.Contains(err.Error(), "B's attempts"):
			t.Errorf("%s: %q does not say what B missed", c.name, err)
		}
	}
}

// A B too slow for the break its variant claims is late, not a hold; where the variant
// claims nothing, a slow B's refusals test the race its own speed gives.
func TestSlowBIsLateOnlyWhereTheVariantClaimsABreak(t *testing.T) {
	t.Parallel()
	start := time.Unix(1000, 0)
	at := func(ms int) time.Time { return start.Add(time.Duration(ms) * time.Millisecond) }
	breaks := rateRace(redlockClient, 300*time.Millisecond, 3, 1.2, 0.05)
	measured := rateRace(redlockClient, 300*time.Millisecond, 3, 1.02, 0.01)
	if !slices.Contains(claimsFromModel(breaks, expectGuard), results.Breaks(results.Violations)) || claimsFromModel(measured, expectGuard) != nil {
		t.Fatalf("claims %v and %v: want a break and a measurement", claimsFromModel(breaks, expectGuard), claimsFromModel(measured, expectGuard))
	}
	slowB := func(r clockRace) error {
		w := bWindow{opens: at(297), closes: at(297)}
		w.saw(at(200), at(249), false) // 49 ms attempts, refused before the window
		w.saw(at(250), at(299), true)  // granted after A left
		return r.raced(&w, start, 2*time.Millisecond)
	}
	if err := slowB(breaks); err == nil || !strings.Contains(err.Error(), "too slow for the break") {
		t.Errorf("claimed break, 49 ms attempts: %v; want late", err)
	}
	if err := slowB(measured); err != nil {
		t.Errorf("measured point, 49 ms attempts refused before A left: %v; want judged", err)
	}
	fast := bWindow{opens: at(252), closes: at(285)}
	fast.saw(at(240), at(241), false)
	if err := breaks.raced(&fast, start, 2*time.Millisecond); err == nil || !strings.Contains(err.Error(), "window") {
		t.Errorf("claimed break, a fast B refused only before the window: %v; want late", err)
	}
}

// A store clock that stood still while A's keys were set counts against a trial in
// which B got in only where it could flip the model: two jumped nodes of five leave A a quorum unless its
// keys started their TTL far enough in the past.
func TestStoreClockLagUnjudgesOnlyWhereItCouldDecide(t *testing.T) {
	t.Parallel()
	holds := jumpRace(redlockClient, 300*time.Millisecond, 2, 300*time.Millisecond)
	breaks := jumpRace(redlockClient, 300*time.Millisecond, 3, 300*time.Millisecond)
	aElapsed := 4 * time.Millisecond
	for _, c := range []struct {
		name   string
		race   clockRace
		lag    time.Duration
		judged bool
	}{
		{"no lag", holds, 0, true},
		{"a tick's lag under the drift allowance", holds, time.Millisecond, true},
		{"lag past the drift allowance", holds, 20 * time.Millisecond, false},
		{"a break the lag cannot undo", breaks, 20 * time.Millisecond, true},
	} {
		wantJudged(t, c.name, c.race.lagCouldDecide(aElapsed, c.lag), c.judged)
	}
}

// A waiting Redlock client whose grant missed a reachable node is not the model's race:
// two jumped nodes of five then leave B a quorum the clocks did not free, so the trial
// is not judged; a fail-fast grant on a bare majority is its own variant's premise.
func TestAGrantShortOfEveryReachableNodeIsNotJudged(t *testing.T) {
	t.Parallel()
	waiting := jumpRace(redlockClient, time.Second, 2, time.Second)
	failFast := jumpRace(failFastClient, time.Second, 2, time.Second)
	for _, c := range []struct {
		name      string
		race      clockRace
		held      int
		reachable int
		judged    bool
	}{
		{"waiting, on all five", waiting, 5, 5, true},
		{"waiting, one node missed", waiting, 4, 5, false},
		{"waiting, on the three reachable", waiting, 3, 3, true},
		{"fail-fast, on a majority", failFast, 3, 5, true},
	} {
		wantJudged(t, c.name, c.race.grantAsModelled(c.held, c.reachable), c.judged)
	}
}

// TestBLeftoversUnjudgeOnlyWhereTheyCouldDecide: a waiting client's B that was never
// granted while its own refused attempts' keys stayed on a node, with A's key gone from a
// quorum, raced those keys, not A's clocks: fault_not_produced. With A still on a
// majority, once B got in, with no leftovers, or for a fail-fast client (which leaves
// them by design), the trial is judged.
func TestBLeftoversUnjudgeOnlyWhereTheyCouldDecide(t *testing.T) {
	t.Parallel()
	waiting := jumpRace(redlockClient, time.Second, 2, time.Second)
	failFast := jumpRace(failFastClient, time.Second, 2, time.Second)
	for _, c := range []struct {
		name     string
		race     clockRace
		partial  int
		freeOfA  int
		bGranted bool
		judged   bool
	}{
		{"waiting, B refused over its own key, A gone from 3 of 5", waiting, 1, 3, false, false},
		{"waiting, B refused over its own key, A still on 3 of 5", waiting, 1, 2, false, true},
		{"waiting, B refused, nothing left", waiting, 0, 3, false, true},
		{"waiting, B granted beside a leftover", waiting, 1, 4, true, true},
		{"fail-fast, B refused over its own key, A gone from 3 of 5", failFast, 2, 3, false, true},
	} {
		wantJudged(t, c.name, c.race.leftoversCouldDecide(c.partial, c.freeOfA, 5, c.bGranted), c.judged)
	}
}

// wantJudged checks a trial's refusal: none when judged, else fault_not_produced.
func wantJudged(t *testing.T, name string, err error, judged bool) {
	t.Helper()
	if judged != (err == nil) {
		t.Errorf("%s: %v, want judged %v", name, err, judged)
	}
	if err != nil && !strings.HasPrefix(err.Error(), "fault not produced: ") {
		t.Errorf("%s: %q, want fault_not_produced", name, err)
	}
}
