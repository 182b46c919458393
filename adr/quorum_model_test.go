package adr

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/safety/results"
)

// quorumReports are redlock-quorum results of redlock: k of 20 grants on exactly a
// quorum alone and racing, and restart trials each given whether its grant sat on
// exactly a quorum and whether B got in.
func quorumReports(alone, racing int, restarts []struct{ exact, broke bool }) []*results.Report {
	share := func(name string, k int) *results.Variant {
		v := &results.Variant{Name: name, Measure: results.QuorumOnly, Params: map[string]string{"clients": "4"}}
		for i := 0; i < 20; i++ {
			c := 0
			if i < k {
				c = 1
			}
			v.Add(results.Trial{N: i, Outcome: results.Judged, Counts: map[results.Measure]int{results.QuorumOnly: c}})
		}
		return v
	}
	restart := &results.Variant{Name: "redlock/contended-4/restart-empty", Measure: results.Violations}
	for i, r := range restarts {
		counts := map[results.Measure]int{results.QuorumOnly: 0, results.Violations: 0}
		if r.exact {
			counts[results.QuorumOnly] = 1
		}
		if r.broke {
			counts[results.Violations] = 1
		}
		restart.Add(results.Trial{N: i, Outcome: results.Judged, Counts: counts})
	}
	return []*results.Report{{Scenario: "redlock-quorum", Variants: []*results.Variant{
		share("redlock/uncontended/share", alone), share("redlock/contended-4/share", racing), restart}}}
}

func TestQuorumModelByHand(t *testing.T) {
	// 10 locks/s held 50 ms on one key: half the requests find it held.
	w := &workload.Workload{Occupancy: workload.OccupancyOf(10, 50*time.Millisecond, workload.Keys{Count: 1, Distribution: workload.Uniform})}
	m, why := quorumModel(w, "redlock", quorumReports(0, 8, nil))
	if why != "" {
		t.Fatal(why)
	}
	// 3/5 x (0.5 x 0/20 + 0.5 x 8/20) = 0.12
	if math.Abs(m.P.Central-0.12) > 1e-12 || m.Racers != 4 {
		t.Errorf("P = %v with %d racers, want 0.12 with 4", m.P.Central, m.Racers)
	}
	alone, racing := results.ProportionOf(0, 20), results.ProportionOf(8, 20)
	if lo := 0.6 * (0.5*alone.Lo + 0.5*racing.Lo); math.Abs(m.P.Lo-lo) > 1e-12 {
		t.Errorf("P's low end = %v, want %v", m.P.Lo, lo)
	}
	if hi := 0.6 * (0.5*alone.Hi + 0.5*racing.Hi); math.Abs(m.P.Hi-hi) > 1e-12 {
		t.Errorf("P's high end = %v, want %v", m.P.Hi, hi)
	}
	// With no contention only the lone share counts: 0.
	idle := &workload.Workload{Occupancy: workload.OccupancyOf(1e-6, time.Millisecond, workload.Keys{Count: 1, Distribution: workload.Uniform})}
	if m, _ := quorumModel(idle, "redlock", quorumReports(0, 8, nil)); m.P.Central > 1e-6 {
		t.Errorf("an idle lock's P = %v, want about 0", m.P.Central)
	}
	// A run with 8 racing is another condition: the model reads the fewest racing, not
	// a pool of both.
	more := quorumReports(0, 8, nil)
	eight := &results.Variant{Name: "redlock/contended-8/share", Measure: results.QuorumOnly, Params: map[string]string{"clients": "8"}}
	for i := 0; i < 20; i++ {
		eight.Add(results.Trial{N: i, Outcome: results.Judged, Counts: map[results.Measure]int{results.QuorumOnly: 1}})
	}
	more[0].Variants = append(more[0].Variants, eight)
	if m, _ := quorumModel(w, "redlock", more); math.Abs(m.P.Central-0.12) > 1e-12 || m.Racers != 4 || m.Racing.N != 20 {
		t.Errorf("with 4 and 8 racing: P = %v from %d racers, %d trials; want 0.12 from 4, 20", m.P.Central, m.Racers, m.Racing.N)
	}
	if _, why := quorumModel(w, "redlock-failfast", quorumReports(0, 8, nil)); !strings.Contains(why, "redlock-failfast") {
		t.Errorf("a strategy with no shares measured: why = %q", why)
	}
}

func TestQuorumCheckCallsEveryRestart(t *testing.T) {
	w := &workload.Workload{Occupancy: workload.OccupancyOf(10, 50*time.Millisecond, workload.Keys{Count: 1, Distribution: workload.Uniform})}
	type r = struct{ exact, broke bool }
	// The rule holds: 8 of 20 on exactly a quorum, and those broke.
	var agree []r
	for i := 0; i < 20; i++ {
		agree = append(agree, r{i < 8, i < 8})
	}
	m, _ := quorumModel(w, "redlock", quorumReports(0, 8, agree))
	if c := m.Check; c.Within != 1 || c.Agree != 20 || c.Trials != 20 {
		t.Errorf("check of a history that keeps the rule = %+v, want 1 of 1 within, 20 of 20 called", c)
	}
	// A history that must fail: every restart broke, on a quorum or beyond it.
	var against []r
	for i := 0; i < 20; i++ {
		against = append(against, r{i < 8, true})
	}
	m, _ = quorumModel(w, "redlock", quorumReports(0, 8, against))
	if c := m.Check; c.Within != 0 || c.Agree != 8 || c.Trials != 20 || c.Under != 12 || c.Over != 0 {
		t.Errorf("check of a history that breaks the rule = %+v, want 0 within, 8 of 20 called, 12 breaks not called", c)
	}
	if line := m.Line(); !strings.Contains(line, "0 of 1 contentions' intervals contain the prediction, 8 of 20 judged trials called from the nodes read at their grant: of the others, 0 held where it called a break (it overcounts) and 12 broke where it called none (it undercounts)") {
		t.Errorf("line does not say the check failed: %s", line)
	}
}

// The model enters the figures only when its check holds: a history that keeps the
// rule lets it in, one that breaks it (every restart broke, 8 of 20 predicted) or no
// restart trial at all keeps it out, and the reason names the command or the rows.
func TestOnlyAQuorumModelItsCheckHoldsSizes(t *testing.T) {
	w := &workload.Workload{Occupancy: workload.OccupancyOf(10, 50*time.Millisecond, workload.Keys{Count: 1, Distribution: workload.Uniform})}
	type r = struct{ exact, broke bool }
	var agree, against []r
	for i := 0; i < 20; i++ {
		agree, against = append(agree, r{i < 8, i < 8}), append(against, r{i < 8, true})
	}
	for _, c := range []struct {
		name     string
		restarts []r
		want     string
	}{
		{"kept", agree, ""},
		{"broken", against, "the restart model failed its check: 1 of 1 contentions' intervals miss its prediction " +
			"(redlock/contended-4/restart-empty: predicted 40%, broke 20 of 20 judged"},
		{"never checked", nil, "the restart model is unchecked: no judged redlock-quorum restart-empty trial of redlock " +
			"(`lockbench safety --scenario redlock-quorum --param strategies=redlock`)"},
	} {
		m, _ := quorumModel(w, "redlock", quorumReports(0, 8, c.restarts))
		if got := m.Check.failure("redlock"); !strings.HasPrefix(got, c.want) || (c.want == "") != (got == "") {
			t.Errorf("%s: failure %q, want %q", c.name, got, c.want)
		}
	}
}
