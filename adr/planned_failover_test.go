package adr

import (
	"slices"
	"testing"

	"github.com/lockbench/lockbench/adr/adrtest"
	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/results"
)

// A planned failover is a fault of its own: it reads failover-loss's planned variants
// and never the crash ones (nor they its), no guard inherits it from the strategy, a
// store that promotes nothing is spared it, and no model sizes it: the lab's count is
// missing evidence, in no figure a year.
func TestAPlannedFailoverReadsOnlyItsOwnVariants(t *testing.T) {
	w := loadWorkload(t, "testdata/efficiency.yaml")
	rep := adrtest.HandReport("failover-loss", adrtest.HandVariant("none-delay-0ms", results.Violations, 4, 4),
		adrtest.HandVariant("planned-delay-0ms", results.Violations, 5, 1))
	at := func(es []Exposure, k backend.Fault) Exposure { return es[slices.Index(workload.FaultKinds, k)] }

	es := exposures(w, rep, &Option{Name: "sentinel", Kind: Lock, Probe: "sentinel"})
	if crash := at(es, backend.FailoverFault); crash.Mutex == nil || crash.Mutex.P.K != 4 || crash.Mutex.P.N != 4 {
		t.Errorf("the crash read %+v, want none-delay's 4 of 4", crash.Mutex)
	}
	planned := at(es, backend.PlannedFailoverFault)
	if planned.Mutex == nil || planned.Mutex.P.K != 1 || planned.Mutex.P.N != 5 {
		t.Fatalf("the planned failover read %+v, want planned-delay's 1 of 5", planned.Mutex)
	}
	if planned.Mutex.Uncounted == "" || planned.Model != nil {
		t.Errorf("the planned failover is sized (%+v): no model carries it to the workload", planned)
	}
	guard := GuardOptions("sentinel")[0]
	if e := at(exposures(w, rep, guard), backend.PlannedFailoverFault); e.NA != "" || e.Mutex != nil {
		t.Errorf("%s under a planned failover: %+v, want it applicable and not measured", guard.Name, e)
	}
	if e := at(exposures(w, rep, &Option{Name: "single", Kind: Lock, Probe: "single"}), backend.PlannedFailoverFault); e.NA == "" {
		t.Errorf("single under a planned failover: %+v, want it not applicable (nothing is promoted)", e)
	}
}
