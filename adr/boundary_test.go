package adr

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/adr/adrtest"
	"github.com/lockbench/lockbench/safety/results"
)

// Boundary runs at the workload's TTL reach the models' "checked" line; runs at the
// lab's own TTL do not.
func TestBoundaryChecksAtTheWorkloadsTTL(t *testing.T) {
	w, err := LoadWorkload("../docs/adr-workload.yaml") // TTL 30s
	if err != nil {
		t.Fatal(err)
	}
	pause := adrtest.HandReport("pause-past-ttl", adrtest.HandVariant("single/no-watchdog", results.Violations, 3, 3), adrtest.HandVariant("single/watchdog", results.Violations, 3, 3),
		adrtest.HandVariant("single/no-watchdog-fenced", results.Violations, 3, 3))[0]
	pause.Params = map[string]string{"ttl": "30s", "pause-factor": "1.5"}
	below, above := adrtest.HandVariant("k=3/J=270ms", results.Violations, 3, 0), adrtest.HandVariant("k=3/J=330ms", results.Violations, 3, 3)
	below.Params = map[string]string{"strategy": "redlock", "k": "3", "jump": "270ms", "ttl": "30s"}
	above.Params = map[string]string{"strategy": "redlock", "k": "3", "jump": "330ms", "ttl": "30s"}
	jump := adrtest.HandReport("redlock-clock-jump", below, above)[0]
	reports := []*results.Report{pause, jump}

	pm := SizeModelFor(w, ClientPause, &Option{Kind: Lock, Probe: "single"})
	boundaryChecked(pm, w, ClientPause, reports)
	if !strings.Contains(pm.Checked, "at the workload's TTL 30s, a pause of 1.5 x it gave two holders in 6 of 6 judged unfenced trials") {
		t.Errorf("pause: %s", pm.Checked)
	}
	jm := SizeModelFor(w, ClockJump, &Option{Kind: Lock, Probe: "redlock"})
	boundaryChecked(jm, w, ClockJump, reports)
	if !strings.Contains(jm.Checked, "redlock-clock-jump gave two holders with 3 nodes jumping 270ms: 0 of 3, 3 nodes jumping 330ms: 3 of 3 judged (redsync's drift x TTL = 300ms)") {
		t.Errorf("jump: %s", jm.Checked)
	}
	pause.Params["ttl"], below.Params["ttl"], above.Params["ttl"] = "300ms", "1s", "1s"
	lab := SizeModelFor(w, ClientPause, &Option{Kind: Lock, Probe: "single"})
	boundaryChecked(lab, w, ClientPause, reports)
	labJump := SizeModelFor(w, ClockJump, &Option{Kind: Lock, Probe: "redlock"})
	boundaryChecked(labJump, w, ClockJump, reports)
	if strings.Contains(lab.Checked, "workload's TTL 30s,") || strings.Contains(labJump.Checked, "workload's TTL 30s,") {
		t.Errorf("the lab's TTL read as the workload's: %s / %s", lab.Checked, labJump.Checked)
	}
}
