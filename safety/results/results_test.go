package results

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestWilson(t *testing.T) {
	for _, c := range []struct {
		k, n   int
		lo, hi float64
	}{
		{0, 20, 0, 0.1611}, // the rule of three's honest cousin: 0 of 20 is not 0%
		{20, 20, 0.8389, 1},
		{10, 20, 0.2993, 0.7007},
		{1, 10, 0.0179, 0.4042},
	} {
		lo, hi := Wilson(c.k, c.n)
		if math.Abs(lo-c.lo) > 5e-4 || math.Abs(hi-c.hi) > 5e-4 {
			t.Errorf("Wilson(%d, %d) = %.4f-%.4f, want %.4f-%.4f", c.k, c.n, lo, hi, c.lo, c.hi)
		}
	}
	if lo, hi := Wilson(0, 0); lo != 0 || hi != 1 {
		t.Errorf("Wilson(0, 0) = %v-%v, want the whole of [0, 1]", lo, hi)
	}
}

func TestProportionNeverSaysSafe(t *testing.T) {
	if got := ProportionOf(0, 20).String(); got != "0 of 20 judged (0-16%)" {
		t.Errorf("0 of 20: %q", got)
	}
	if got := ProportionOf(0, 0).String(); got != "no verdict" {
		t.Errorf("nothing judged: %q, want no verdict", got)
	}
}

func TestOutcomeIsClosed(t *testing.T) {
	var tr Trial
	if err := json.Unmarshal([]byte(`{"trial":1,"outcome":"safe"}`), &tr); err == nil {
		t.Errorf("outcome \"safe\" read as %q: want an error", tr.Outcome)
	}
	if err := json.Unmarshal([]byte(`{"trial":1,"outcome":"fault_not_produced"}`), &tr); err != nil || tr.Outcome != FaultNotProduced {
		t.Errorf("fault_not_produced: %v %q", err, tr.Outcome)
	}
}

func TestTallyAndClaims(t *testing.T) {
	v := &Variant{Name: "v", Measure: LostLocks, Claims: []Claim{Breaks(LostLocks), Holds(Violations)}}
	v.Add(Trial{N: 0, Outcome: Judged, Proof: []string{"p"}, Counts: map[Measure]int{LostLocks: 1}})
	v.Add(Trial{N: 1, Outcome: Judged, Proof: []string{"p"}, Counts: map[Measure]int{LostLocks: 0}})
	v.Add(Trial{N: 2, Outcome: FaultNotProduced, Message: "no promotion"})
	v.Add(Trial{N: 3, Outcome: Errored, ErrorKind: "connection"})
	v.Add(Trial{N: 4, Outcome: Errored, ErrorKind: "connection"})
	v.Add(Trial{N: 5, Outcome: NotGranted})
	tl := v.Tally
	if tl.Trials != 6 || tl.Judged != 2 || tl.FaultNotProduced != 1 || tl.NotGranted != 1 || tl.Errors["connection"] != 2 {
		t.Errorf("tally %+v", tl)
	}
	if tl.Headline.K != 1 || tl.Headline.N != 2 {
		t.Errorf("headline %v, want 1 of 2 judged", tl.Headline)
	}
	for _, c := range v.Claims {
		if ok, why := c.Check(tl); !ok {
			t.Errorf("%s: %s", c, why)
		}
	}
	if ok, _ := Always(LostLocks).Check(tl); ok {
		t.Error("lost in 1 of 2 judged trials passed an Every claim")
	}
	if ok, _ := Holds(LostLocks).Check(tl); ok {
		t.Error("a lost lock passed a None claim")
	}
	if ok, _ := Holds(Violations).Check(TallyOf(Violations, []Trial{{Outcome: FaultNotProduced}})); ok {
		t.Error("a variant with no judged trial passed a claim")
	}
	r := &Report{Scenario: "s", Variants: []*Variant{v, {Name: "empty", Measure: Violations}}}
	table := r.Table()
	for _, want := range []string{"1 of 2 judged (9-91%)", "no verdict", "connection×2"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	if strings.Contains(strings.ToLower(table), "safe") {
		t.Errorf("table says safe:\n%s", table)
	}
}
