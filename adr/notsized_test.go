package adr

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/adr/adrtest"
	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/results"
)

// A failover under WAIT 1 measured at the lab's kill delays (2 of 20 and 0 of 20) has no
// model to the workload: it is said as the lab's counts, each delay apart (their pool
// is no one condition's rate), kept out of every year figure, and the
// decision counts it as missing evidence (at its worst for efficiency). Before, its
// 0.400 (0.111-1.32) a year entered the total as the workload's.
func TestNotSizedLabProbabilityStaysOutOfTheYear(t *testing.T) {
	w := loadWorkload(t, "testdata/efficiency.yaml")
	reports := adrtest.HandReport("failover-loss", adrtest.HandVariant("wait1-delay-0ms", results.Violations, 20, 2), adrtest.HandVariant("wait1-delay-50ms", results.Violations, 20, 0))
	o := &Option{Name: "wait", Kind: Lock, Probe: "wait", Cost: Cost{Measured: true, Within: true}}
	o.Faults = exposures(w, reports, o)
	e := o.Faults[0]
	if e.Kind != backend.FailoverFault || e.Mutex == nil || !strings.HasPrefix(e.Mutex.Uncounted, "not sized: lab at `failover-loss` wait1-delay-0ms 2 of 20, wait1-delay-50ms 0 of 20 judged, each apart (its own kill delays and replica lags)") {
		t.Fatalf("failover under WAIT 1: %+v", e.Mutex)
	}
	total, missing := Total(o.Faults, false)
	if total.Hi != 0 || len(missing) == 0 || missing[0] != backend.FailoverFault {
		t.Errorf("the lab's P entered the total: %+v, missing %v", total, missing)
	}
	v := judge(w, o)
	why := strings.Join(v.Why, "; ")
	if v.RuledOut || !strings.Contains(why, "failover (not sized: lab at `failover-loss` wait1-delay-0ms 2 of 20") || v.Unmeasured < e.PerYear*e.LocksHeld {
		t.Errorf("the decision does not treat it as missing evidence: %+v", v)
	}
	if line := measuredText(e.Mutex); !strings.HasPrefix(line, "not sized: lab at `failover-loss` wait1-delay-0ms 2 of 20") || strings.Contains(line, "a year:") {
		t.Errorf("the ADR's text: %s", line)
	}
}

// A mechanism that never breaks, and a lone member's disk loss (its model: every held
// lock is on the one member), need no sizing: they stay in the year.
func TestMechanismsAndTheLoneMemberAreSized(t *testing.T) {
	w := loadWorkload(t, "testdata/correctness.yaml")
	reports := adrtest.HandReport("etcd-leader-kill", adrtest.HandVariant("etcd-3-leader-kill", results.Violations, 3, 0),
		adrtest.HandVariant("etcd-lone-member-disk-loss", results.Violations, 3, 3))
	for _, c := range []struct {
		probe string
		kind  backend.Fault
	}{{"etcd-3", backend.FailoverFault}, {"etcd", backend.RestartEmptyFault}} {
		o := &Option{Kind: Lock, Probe: c.probe}
		for _, e := range exposures(w, reports, o) {
			if e.Kind == c.kind && (e.Mutex == nil || e.Mutex.Uncounted != "") {
				t.Errorf("%s under %s: %+v", c.probe, c.kind, e.Mutex)
			}
		}
	}
}
