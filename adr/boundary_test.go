package adr

import (
	"slices"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/adr/adrtest"
	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/results"
)

// Boundary runs at the workload's TTL reach the models' "checked" line; runs at the
// lab's own TTL do not.
func TestBoundaryChecksAtTheWorkloadsTTL(t *testing.T) {
	w := loadWorkload(t, "../docs/adr-workload.yaml") // TTL 30s
	pause := adrtest.HandReport("pause-past-ttl", adrtest.HandVariant("single/no-watchdog", results.Violations, 3, 3), adrtest.HandVariant("single/watchdog", results.Violations, 3, 3),
		adrtest.HandVariant("single/no-watchdog-fenced", results.Violations, 3, 3))[0]
	pause.Params = map[string]string{"ttl": "30s", "pause-factor": "1.5"}
	below, above := adrtest.HandVariant("k=3/J=270ms", results.Violations, 3, 0), adrtest.HandVariant("k=3/J=330ms", results.Violations, 3, 3)
	below.Params = map[string]string{"strategy": "redlock", "k": "3", "jump": "270ms", "ttl": "30s"}
	above.Params = map[string]string{"strategy": "redlock", "k": "3", "jump": "330ms", "ttl": "30s"}
	jump := adrtest.HandReport("redlock-clock-jump", below, above)[0]
	reports := []*results.Report{pause, jump}

	pm := SizeModelFor(w, backend.ClientPauseFault, &Option{Kind: Lock, Probe: "single"})
	boundaryChecked(pm, w, backend.ClientPauseFault, reports)
	if !strings.Contains(pm.Checked, "at the workload's TTL 30s, a pause of 1.5 x it gave two holders in 6 of 6 judged unfenced trials") {
		t.Errorf("pause: %s", pm.Checked)
	}
	jm := SizeModelFor(w, backend.ClockJumpFault, &Option{Kind: Lock, Probe: "redlock"})
	boundaryChecked(jm, w, backend.ClockJumpFault, reports)
	if !strings.Contains(jm.Checked, "redlock-clock-jump gave two holders with 3 nodes jumping 270ms: 0 of 3, 3 nodes jumping 330ms: 3 of 3 judged (its holder keeps the lock for its whole validity, TTL - redsync's drift, so the threshold TTL - hold is the drift x TTL = 300ms)") {
		t.Errorf("jump: %s", jm.Checked)
	}
	pause.Params["ttl"], below.Params["ttl"], above.Params["ttl"] = "300ms", "1s", "1s"
	lab := SizeModelFor(w, backend.ClientPauseFault, &Option{Kind: Lock, Probe: "single"})
	boundaryChecked(lab, w, backend.ClientPauseFault, reports)
	labJump := SizeModelFor(w, backend.ClockJumpFault, &Option{Kind: Lock, Probe: "redlock"})
	boundaryChecked(labJump, w, backend.ClockJumpFault, reports)
	if strings.Contains(lab.Checked, "workload's TTL 30s,") || strings.Contains(labJump.Checked, "workload's TTL 30s,") {
		t.Errorf("the lab's TTL read as the workload's: %s / %s", lab.Checked, labJump.Checked)
	}
}

// boundaryVariant is n judged trials of one side of a boundary run, k with two holders.
func boundaryVariant(name string, params map[string]string, n, k int) *results.Variant {
	v := adrtest.HandVariant(name, results.Violations, n, k)
	v.Params = params
	return v
}

// pauseBoundaryReports is pause-past-ttl's mechanism at the workload's TTL 30s and its
// boundary mode after the workload's 50ms hold, below broken in brokeBelow of 3.
func pauseBoundaryReports(brokeBelow int) []*results.Report {
	mech := adrtest.HandReport("pause-past-ttl", adrtest.HandVariant("single/no-watchdog", results.Violations, 3, 3), adrtest.HandVariant("single/watchdog", results.Violations, 3, 3))[0]
	mech.Params = map[string]string{"ttl": "30s", "pause-factor": "1.5"}
	p := func(side, factor string) map[string]string {
		return map[string]string{"strategy": "single", "side": side, "pause_factor": factor, "pause_at": "50ms", "ttl": "30s"}
	}
	bound := adrtest.HandReport("pause-past-ttl", boundaryVariant("single/below-lease-0.8x", p("below", "0.8"), 3, brokeBelow),
		boundaryVariant("single/above-lease-1.2x", p("above", "1.2"), 3, 3))[0]
	bound.Params = map[string]string{"ttl": "30s", "mode": "boundary", "pause-at": "50ms"}
	return []*results.Report{mech, bound}
}

// Both sides of the pause boundary at the workload's TTL and hold reach the model's
// line with their counts and intervals; a break below the boundary contradicts the
// model, and the lab's pause probability is then not sized: missing evidence.
func TestPauseBoundaryAtTheWorkloadsTTLChecksTheModel(t *testing.T) {
	w := loadWorkload(t, "../docs/adr-workload.yaml") // TTL 30s, hold 50ms
	single := &Option{Kind: Lock, Probe: "single"}
	held := SizeModelFor(w, backend.ClientPauseFault, single)
	boundaryChecked(held, w, backend.ClientPauseFault, pauseBoundaryReports(0))
	for _, want := range []string{"at the workload's TTL 30s, a pause of 1.5 x it gave two holders in 6 of 6 judged unfenced trials",
		"single, below (a stop of 0.8 x the lease left): two holders in 0 of 3 judged (0-56%)",
		"single, above (a stop of 1.2 x the lease left): two holders in 3 of 3 judged (44-100%)",
		"as the model says: none below the boundary, every one above"} {
		if !strings.Contains(held.Checked, want) || held.Contradicted != "" {
			t.Errorf("model held: want %q in %s (contradicted %q)", want, held.Checked, held.Contradicted)
		}
	}
	broke := SizeModelFor(w, backend.ClientPauseFault, single)
	boundaryChecked(broke, w, backend.ClientPauseFault, pauseBoundaryReports(1))
	if !strings.Contains(broke.Checked, "the model is contradicted: single broke 1 of 3 judged below the boundary") || broke.Contradicted == "" {
		t.Errorf("a break below the boundary does not contradict the model: %s", broke.Checked)
	}
	for brokeBelow, sized := range map[int]bool{0: true, 1: false} {
		e := exposures(w, pauseBoundaryReports(brokeBelow), single)[slices.Index(workload.FaultKinds, backend.ClientPauseFault)]
		if e.Kind != backend.ClientPauseFault || e.Mutex == nil || (e.Mutex.Uncounted == "") != sized {
			t.Errorf("%d broke below: pause measured %+v, want sized %v", brokeBelow, e.Mutex, sized)
		}
	}
}

// The single-master jump boundary at the workload's TTL and hold: every judged trial
// above broke, as the model says; one above that held makes its count an upper end
// there, contradicting nothing; a run at another hold is not the workload's.
func TestSingleJumpBoundaryAtTheWorkloadsTTLAndHold(t *testing.T) {
	w := loadWorkload(t, "../docs/adr-workload.yaml")
	run := func(hold string, brokeAbove int) []*results.Report {
		p := func(side, jump, factor string) map[string]string {
			return map[string]string{"side": side, "jump": jump, "jump_factor": factor, "ttl": "30s", "hold": hold}
		}
		return adrtest.HandReport("single-clock-skew", boundaryVariant("jump-below-0.8x", p("below", "23.96s", "0.8"), 3, 0),
			boundaryVariant("jump-above-1.2x", p("above", "35.94s", "1.2"), 3, brokeAbove))
	}
	single := &Option{Kind: Lock, Probe: "single"}
	m := SizeModelFor(w, backend.ClockJumpFault, single)
	boundaryChecked(m, w, backend.ClockJumpFault, run("50ms", 3))
	if !strings.Contains(m.Checked, "at the workload's TTL 30s and hold 50ms (TTL - hold = 29.95s): single, below (a jump of 23.96s (0.8 x TTL - hold)): two holders in 0 of 3 judged (0-56%)") || m.Contradicted != "" {
		t.Errorf("jump boundary: %s", m.Checked)
	}
	held := SizeModelFor(w, backend.ClockJumpFault, single)
	boundaryChecked(held, w, backend.ClockJumpFault, run("50ms", 2))
	if !strings.Contains(held.Checked, "the model overcounts there (single held in 1 of 3 judged above it): its count is an upper end") || held.Contradicted != "" {
		t.Errorf("a jump above TTL - hold that held: %s (contradicted %q)", held.Checked, held.Contradicted)
	}
	other := SizeModelFor(w, backend.ClockJumpFault, single)
	boundaryChecked(other, w, backend.ClockJumpFault, run("100ms", 3))
	if strings.Contains(other.Checked, "boundary mode") {
		t.Errorf("a run at another hold read as the workload's: %s", other.Checked)
	}
}

// A fault the size model finds too small to break any hold asks no measurement: the
// shipped efficiency workload's jumps (at most 1 s, below TTL - hold) leave nothing
// missing on either side of single + fence; a break below the boundary contradicts the
// model, and the fault is missing evidence again.
func TestAFaultSizedAwayAsksNoMeasurement(t *testing.T) {
	w := loadWorkload(t, "../docs/adr-workload.yaml")
	p := func(side, jump, factor string) map[string]string {
		return map[string]string{"side": side, "jump": jump, "jump_factor": factor, "ttl": "30s", "hold": "50ms"}
	}
	boundary := func(brokeBelow int) []*results.Report {
		return adrtest.HandReport("single-clock-skew", boundaryVariant("jump-below-0.8x", p("below", "23.96s", "0.8"), 3, brokeBelow),
			boundaryVariant("jump-above-1.2x", p("above", "35.94s", "1.2"), 3, 3))
	}
	fenced := &Option{Kind: Fenced, Probe: "single"}
	for brokeBelow, missing := range map[int]bool{0: false, 1: true} {
		es := exposures(w, boundary(brokeBelow), fenced)
		for _, data := range []bool{false, true} {
			if _, m := Total(es, data); slices.Contains(m, backend.ClockJumpFault) != missing {
				t.Errorf("%d broke below, data side %v: missing %v, want clock_jump missing %v", brokeBelow, data, m, missing)
			}
		}
	}
}

// labBoundaryReport is pause-past-ttl's boundary mode at the lab's TTL ttl, the holder
// stopping after pauseAt, below broken in brokeBelow of 3.
func labBoundaryReport(ttl, pauseAt string, brokeBelow int) *results.Report {
	p := func(side, factor string) map[string]string {
		return map[string]string{"strategy": "single", "side": side, "pause_factor": factor, "pause_at": pauseAt, "ttl": ttl}
	}
	r := adrtest.HandReport("pause-past-ttl", boundaryVariant("single/below-lease-0.8x", p("below", "0.8"), 3, brokeBelow),
		boundaryVariant("single/above-lease-1.2x", p("above", "1.2"), 3, 3))[0]
	r.Params = map[string]string{"ttl": ttl, "mode": "boundary", "pause-at": pauseAt}
	return r
}

// At the lab's TTLs 2 s and 4 s the workload's 50 ms of 30 s is 3 ms and 7 ms: boundary
// runs there check the model, a break below either contradicts it, and a run after
// another hold is not the workload's share.
func TestPauseBoundaryAtTheLabsTTLsChecksTheModel(t *testing.T) {
	w := loadWorkload(t, "../docs/adr-workload.yaml") // TTL 30s, hold 50ms
	single := &Option{Kind: Lock, Probe: "single"}
	held := SizeModelFor(w, backend.ClientPauseFault, single)
	boundaryChecked(held, w, backend.ClientPauseFault,
		[]*results.Report{labBoundaryReport("2s", "3ms", 0), labBoundaryReport("4s", "7ms", 0)})
	for _, want := range []string{"at the lab's TTL 2s, the hold scaled to the same share of it (3ms)",
		"at the lab's TTL 4s, the hold scaled to the same share of it (7ms)",
		"single, below (a stop of 0.8 x the lease left at TTL 4s, after 7ms): two holders in 0 of 3 judged"} {
		if !strings.Contains(held.Checked, want) || held.Contradicted != "" {
			t.Errorf("want %q in %s (contradicted %q)", want, held.Checked, held.Contradicted)
		}
	}
	broke := SizeModelFor(w, backend.ClientPauseFault, single)
	boundaryChecked(broke, w, backend.ClientPauseFault,
		[]*results.Report{labBoundaryReport("2s", "3ms", 0), labBoundaryReport("4s", "7ms", 2)})
	if !strings.Contains(broke.Contradicted, "single broke 2 of 3 judged below the boundary") {
		t.Errorf("a break below the boundary at 4 s does not contradict the model: %q", broke.Contradicted)
	}
	other := SizeModelFor(w, backend.ClientPauseFault, single)
	boundaryChecked(other, w, backend.ClientPauseFault, []*results.Report{labBoundaryReport("2s", "50ms", 3)})
	if strings.Contains(other.Checked, "lab's TTL") || other.Contradicted != "" {
		t.Errorf("a run after the unscaled hold was read as the workload's share: %s", other.Checked)
	}
}
