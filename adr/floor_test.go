package adr

import (
	"strings"
	"testing"
)

// The efficiency example's scheduler lock, 10 ticks a second held 50 ms on one key, has
// a queueing floor whose p99 (about 166 ms) is far past its 10 ms budget: every lock is
// ruled out by the floor, not by a missing cost, and the record says what would do.
func TestTheFloorRulesOutEveryLockWhenItAloneMissesTheBudget(t *testing.T) {
	w := loadWorkload(t, "../docs/adr-workload.yaml")
	d := decideSynthetic(t, "testdata/efficiency.yaml")
	d = Decide(w, d.Inputs)
	if d.Floor == nil || d.Floor.Meets() || d.Floor.Exceed < 0.4 {
		t.Fatalf("floor %+v: 0.447 of requests wait over 10 ms at M/D/1 rho 0.5", d.Floor)
	}
	locks := 0
	for _, o := range d.Options {
		if o.Kind == LockFree {
			continue
		}
		locks++
		why := strings.Join(o.Verdict.Why, "; ")
		if !o.Verdict.RuledOut || !strings.Contains(why, "no lock can meet p99 within 10.0ms at 10.0/s") ||
			strings.Contains(why, "cost not measured") {
			t.Errorf("%s: ruled out %v, why %q", o.Name, o.Verdict.RuledOut, why)
		}
	}
	if locks == 0 {
		t.Fatal("no lock option to judge")
	}
	md := Markdown(d, Meta{Date: "2026-12-01", Command: "lockbench adr"})
	for _, want := range []string{"**No lock can meet the latency budget**", "What would: holds of at most ",
		"the lock spread over more keys", "a way with no lock"} {
		if !strings.Contains(md, want) {
			t.Errorf("the record does not say %q", want)
		}
	}
	// The hold it names keeps the budget, and the workload's does not.
	h := *w
	h.HoldD = d.Floor.LongestHold * 9 / 10
	if f, err := computeFloor(&h); err != nil || !f.Meets() {
		t.Errorf("at 0.9 x the longest hold %v: %+v, %v; want the budget kept", d.Floor.LongestHold, f, err)
	}
	if d.Floor.LongestHold <= 0 || d.Floor.LongestHold >= w.HoldD {
		t.Errorf("longest hold %v, want between 0 and the workload's %v", d.Floor.LongestHold, w.HoldD)
	}
}

// Where the floor keeps the budget, no option is ruled out by it and the record says so.
func TestAFloorWithinTheBudgetRulesNothingOut(t *testing.T) {
	d := decideSynthetic(t, "testdata/efficiency.yaml")
	if d.Floor == nil || !d.Floor.Meets() {
		t.Fatalf("floor %+v: 1000/s on its keys waits under 5 ms", d.Floor)
	}
	for _, o := range d.Options {
		if o.beyondFloor != "" || strings.Contains(strings.Join(o.Verdict.Why, ";"), "no lock can meet") {
			t.Errorf("%s ruled out by a floor that keeps the budget: %v", o.Name, o.Verdict.Why)
		}
	}
}

// The floor takes the workload's hold distribution: exponential holds of the same 50 ms
// mean (E[S^2] twice a constant's) leave more requests waiting past the budget, and a
// longer p99, than constant ones.
func TestTheFloorFollowsTheHoldDistribution(t *testing.T) {
	w := loadWorkload(t, "../docs/adr-workload.yaml")
	constant, err := computeFloor(w)
	if err != nil {
		t.Fatal(err)
	}
	exp := *w
	exp.HoldDist = "exp"
	spread, err := computeFloor(&exp)
	if err != nil {
		t.Fatal(err)
	}
	cw, _ := constant.Wait.Duration()
	sw, _ := spread.Wait.Duration()
	if spread.Exceed <= constant.Exceed || sw <= cw {
		t.Errorf("exp holds: %.3f over the budget, p99 %v; const: %.3f, %v", spread.Exceed, sw, constant.Exceed, cw)
	}
}
