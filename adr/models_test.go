package adr

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/adr/adrtest"
	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/backend"
)

func sizedWorkload(t *testing.T, pause, jump string) *workload.Workload {
	t.Helper()
	text := strings.Replace(strings.Replace(adrtest.GoodWorkload,
		"client_pause: {per_year: 1, longer_than: 1s, source: team's guess}", "client_pause: {per_year: 1, "+pause+" source: team's guess}", 1),
		"clock_jump: {per_year: 1, above: 100ms, source: team's guess}", "clock_jump: {per_year: 1, "+jump+" source: team's guess}", 1)
	w, err := workload.Parse("w.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// The workload: TTL 1 s, hold 5 ms. A pause breaks a hold only past 995 ms; a pause
// of 997 ms breaks the holds it finds in their last 2 ms: 2/5 = 40%.
func TestPauseModelByHand(t *testing.T) {
	cases := []struct {
		pause string
		share float64
		bound bool
	}{
		{"longer_than: 1s,", 1, false},                    // every counted pause outlasts the whole TTL
		{"longer_than: 100ms, at_most: 990ms,", 0, false}, // none outlasts the lease left
		{"longer_than: 100ms, at_most: 997ms,", 0.4, true},
		{"longer_than: 100ms,", 1, true}, // no largest size: the upper end
	}
	for _, c := range cases {
		m := pauseModel(sizedWorkload(t, c.pause, "above: 100ms,"))
		adrtest.Near(t, c.pause, m.Share, c.share)
		if m.Bound != c.bound {
			t.Errorf("%s: bound %v, want %v (%s)", c.pause, m.Bound, c.bound, m.Why)
		}
	}
	adrtest.Near(t, "997ms over TTL 1s, hold 5ms", pauseShare(997*time.Millisecond, time.Second, 5*time.Millisecond, 0), 0.4)
}

// With a watchdog the lease left is TTL minus the time since its last extension. TTL
// 1 s, hold 50 ms, extended every 20 ms: two whole periods and 10 ms. A 990 ms pause
// breaks where that time passed 10 ms: 10 ms of each period, none of the rest, 20/50;
// without the watchdog 40/50. A 985 ms one: 5 ms of each period, 10/50. A watchdog
// slower than the hold never extends within it: as without one.
func TestPauseModelWithAWatchdogByHand(t *testing.T) {
	ms := time.Millisecond
	adrtest.Near(t, "990ms, every 20ms", pauseShare(990*ms, time.Second, 50*ms, 20*ms), 0.4)
	adrtest.Near(t, "990ms, no watchdog", pauseShare(990*ms, time.Second, 50*ms, 0), 0.8)
	adrtest.Near(t, "985ms, every 20ms", pauseShare(985*ms, time.Second, 50*ms, 20*ms), 0.2)
	adrtest.Near(t, "997ms, hold 5ms, every 10ms", pauseShare(997*ms, time.Second, 5*ms, 10*ms), 0.4)
	w := sizedWorkload(t, "longer_than: 100ms, at_most: 990ms,", "above: 100ms,")
	w.HoldD, w.WatchdogD = 50*ms, 20*ms
	m := pauseModel(w)
	adrtest.Near(t, "at most 990ms, every 20ms", m.Share, 0.4)
	if !m.Bound || !strings.Contains(m.Assumes, "with a watchdog extending every 20ms") || !strings.Contains(m.Why, "past 980ms") {
		t.Errorf("the model does not say its watchdog: %s; %s", m.Assumes, m.Why)
	}
}

// TTL 1 s, hold 5 ms: a forward jump breaks a hold exactly when it exceeds 995 ms.
func TestJumpModelByHand(t *testing.T) {
	cases := []struct {
		jump  string
		share float64
		bound bool
	}{
		{"above: 100ms, at_most: 995ms,", 0, false},
		{"above: 995ms,", 1, false},
		{"above: 100ms, at_most: 2s,", 1, true},
		{"above: 100ms,", 1, true},
	}
	for _, c := range cases {
		m := jumpModel(sizedWorkload(t, "longer_than: 1s,", c.jump))
		adrtest.Near(t, c.jump, m.Share, c.share)
		if m.Bound != c.bound {
			t.Errorf("%s: bound %v, want %v (%s)", c.jump, m.Bound, c.bound, m.Why)
		}
	}
}

// The write-up's efficiency example: 100 ms to 1 s jumps cannot free a 30 s lease
// during a 50 ms hold, so clock_jump adds nothing, and the ADR names the model. At a
// 200 ms latency budget: at its own, the queueing floor rules every lock out and the
// record states no lock's models.
func TestShippedEfficiencyWorkloadCountsNoClockJump(t *testing.T) {
	w := loadWorkload(t, "../docs/adr-workload.yaml")
	w.SLO.Budget = 200 * time.Millisecond
	bench, safety := adrtest.Folders(t)
	in, err := LoadInputs([]string{bench, safety})
	if err != nil {
		t.Fatal(err)
	}
	d := Decide(w, in)
	single := option(t, d, "single")
	for _, e := range single.Faults {
		if e.Kind != backend.ClockJumpFault {
			continue
		}
		if e.Model == nil || e.Model.Share != 0 || e.Mutex == nil || e.Mutex.Year != (Expected{}) {
			t.Fatalf("single under clock_jump: %+v model %+v", e.Mutex, e.Model)
		}
	}
	// Nor on a Redlock node: its key expires early only past TTL - hold too. Sized
	// away, it is no missing evidence (before, every jump was taken to break).
	for _, e := range option(t, d, "redlock").Faults {
		if e.Kind == backend.ClockJumpFault && (e.Model == nil || e.Model.Name != redlockJumpModel || !e.sizedAway()) {
			t.Fatalf("redlock under clock_jump: model %+v", e.Model)
		}
	}
	if _, missing := Total(option(t, d, "redlock").Faults, false); slices.Contains(missing, backend.ClockJumpFault) {
		t.Errorf("redlock's clock_jump still counts as missing evidence")
	}
	md := Markdown(d, Meta{Date: "2026-12-01", Command: "lockbench adr"})
	if !strings.Contains(md, "Size model for clock_jump, forward jump against TTL - hold") || !strings.Contains(md, "none breaks a hold") {
		t.Fatalf("the ADR does not name the jump model:\n%s", md)
	}
}

// A fault the size model finds too small to break a hold, with no results for it,
// reads as counting none by that model, not as unmeasured.
func TestASizedAwayFaultWithNoResultsReadsAsNone(t *testing.T) {
	w := loadWorkload(t, "../docs/adr-workload.yaml")
	o := &Option{Name: "redlock", Kind: Lock, Probe: "redlock"}
	e := Exposure{Kind: backend.ClockJumpFault, PerYear: 1, Model: SizeModelFor(w, backend.ClockJumpFault, o)}
	var b strings.Builder
	if err := adrTemplate.ExecuteTemplate(&b, "fault line", faultLineOf(o, e)); err != nil {
		t.Fatal(err)
	}
	if want := "* Neutral, because clock_jump counts none, by the size model clock jump on a Redlock node: the counted jumps are at most 1s, below TTL - hold = 29.95s: none breaks a hold.\n"; b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
}
