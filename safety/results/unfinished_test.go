package results

import (
	"strings"
	"testing"
)

// TestUnfinishedRunSaysSoAndRoundTrips: results.json keeps "complete" and each trial's
// seed; results.md of an unfinished run says which scenario stopped where.
func TestUnfinishedRunSaysSoAndRoundTrips(t *testing.T) {
	v := &Variant{Name: "v", Measure: Violations}
	v.Add(Trial{N: 0, Seed: 1 << 63, Outcome: Judged, Proof: []string{"seen"}, Counts: map[Measure]int{Violations: 1}})
	v.Add(Trial{N: 1, Seed: 1<<63 + 1, Outcome: FaultNotProduced, Message: "no promotion"})
	cut := &Report{Scenario: "cut", Variants: []*Variant{v}}
	done := &Report{Scenario: "done", Complete: true, Variants: []*Variant{{Name: "w", Measure: Violations}}}
	res := Results{Command: &Command{Scenarios: []string{"done", "cut"}, Trials: 3, Seed: 5}, Reports: []*Report{done, cut}}

	md := res.Markdown()
	if !strings.Contains(md, "**Unfinished run**") || !strings.Contains(md, "cut stopped after 2 trials") || strings.Contains(md, "done stopped") {
		t.Errorf("results.md of an unfinished run:\n%s", md)
	}
	res.Complete = true
	if strings.Contains(res.Markdown(), "Unfinished") {
		t.Errorf("a complete run's results.md says it is unfinished")
	}

	dir := t.TempDir()
	res.Complete = false
	if err := Write(dir, res); err != nil {
		t.Fatal(err)
	}
	back, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if back.Complete || back.Command == nil || back.Command.Seed != 5 || !back.Reports[0].Complete || back.Reports[1].Complete {
		t.Errorf("read back complete %v, command %+v, reports complete %v %v", back.Complete, back.Command, back.Reports[0].Complete, back.Reports[1].Complete)
	}
	if got := back.Reports[1].Variants[0].Trials[1].Seed; got != 1<<63+1 {
		t.Errorf("trial seed read back as %d, want %d", got, uint64(1<<63+1))
	}
}
