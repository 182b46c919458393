package adr

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/adr/adrtest"
	"github.com/lockbench/lockbench/adr/workload"
	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/results"
)

// A host crash of the one Redis master, deployed without an AOF, loses every held
// lock: host-crash's appendfsync-no variant broke every judged trial and its claim
// backs it, so single counts rate x locks held a year, sized by the unsynced-writes
// model. A lone etcd member fsyncs before it answers: never, 0 a year. Neither is
// missing evidence.
func TestAHostCrashCountsThroughItsScenario(t *testing.T) {
	w := loadWorkload(t, "testdata/correctness.yaml")
	reports := adrtest.HandReport("host-crash",
		lostEvery("single/appendfsync-no", 5),
		adrtest.HandVariant("single/appendfsync-always", results.Violations, 5, 0),
		kept("etcd/host-crash", 5))
	single := hostCrashOf(t, w, reports, "single")
	if single.Mutex == nil || single.Mutex.Uncounted != "" || single.Mutex.Demo != Always ||
		single.Model == nil || single.Model.Name != "a lone server's unsynced writes" {
		t.Fatalf("single under host_crash: %+v, model %+v", single.Mutex, single.Model)
	}
	if !strings.Contains(single.Model.Checked, "5 of 5 judged lost the lock") || single.Model.Contradicted != "" {
		t.Errorf("the model's check: %q, contradicted %q", single.Model.Checked, single.Model.Contradicted)
	}
	if want := single.PerYear * single.LocksHeld; want == 0 || single.Mutex.Year.Central != want {
		t.Errorf("single under host_crash: %v a year, want every held lock at each crash, %v", single.Mutex.Year, want)
	}
	etcd := hostCrashOf(t, w, reports, "etcd")
	if etcd.Mutex == nil || etcd.Mutex.Uncounted != "" || etcd.Mutex.Demo != Never || etcd.Mutex.Year != (Expected{}) {
		t.Fatalf("etcd under host_crash: %+v", etcd.Mutex)
	}
	if total, missing := Total([]Exposure{etcd}, false); total.Hi != 0 || len(missing) != 0 {
		t.Errorf("etcd's host crash: total %+v, missing %v", total, missing)
	}
	// Fenced, the data side reads the member's tokens: none handed out again.
	for _, e := range exposures(w, reports, &Option{Kind: Fenced, Probe: "etcd"}) {
		if e.Kind == backend.HostCrashFault && (e.Data == nil || e.Data.Uncounted != "" || e.Data.Demo != Never) {
			t.Errorf("etcd + fence under host_crash: data %+v", e.Data)
		}
	}
}

// Without the host-crash variants, the same crash is missing evidence, and says the
// command that measures it; a lock-free option is not exposed to it at all.
func TestAHostCrashWithoutItsScenarioIsMissing(t *testing.T) {
	w := loadWorkload(t, "testdata/correctness.yaml")
	single := hostCrashOf(t, w, nil, "single")
	if single.Mutex != nil || single.MutexIn != "host-crash" {
		t.Fatalf("single under host_crash with no results: %+v in %q", single.Mutex, single.MutexIn)
	}
	if _, missing := Total([]Exposure{single}, false); len(missing) != 1 || missing[0] != backend.HostCrashFault {
		t.Errorf("missing %v, want host_crash", missing)
	}
	o := &Option{Kind: LockFree, Probe: "atomic"}
	for _, e := range exposures(w, nil, o) {
		if e.Kind == backend.HostCrashFault && !strings.Contains(e.NA, "no lock service") {
			t.Errorf("atomic under host_crash: %q, want not applicable", e.NA)
		}
	}
}

// lostEvery is n judged trials of a master that lost A's lock and let B in, each one.
func lostEvery(name string, n int) *results.Variant {
	return judgedAlike(name, n, map[results.Measure]int{results.LostLocks: 1, results.Violations: 1},
		results.Always(results.LostLocks), results.Always(results.Violations))
}

// kept is n judged trials of a lone member that kept A's lock: no second holder, no
// token handed out again.
func kept(name string, n int) *results.Variant {
	return judgedAlike(name, n, map[results.Measure]int{results.Violations: 0, results.ReissuedTokens: 0},
		results.Holds(results.Violations), results.Holds(results.ReissuedTokens))
}

// judgedAlike is n judged trials with the same counts, under claims (the first's
// measure the variant's).
func judgedAlike(name string, n int, counts map[results.Measure]int, claims ...results.Claim) *results.Variant {
	v := &results.Variant{Name: name, Measure: claims[0].Measure, Claims: claims}
	for i := 0; i < n; i++ {
		v.Add(results.Trial{N: i, Outcome: results.Judged, Proof: []string{"by hand"}, Counts: counts})
	}
	return v
}

// hostCrashOf is the host_crash exposure of the lock option on strategy probe.
func hostCrashOf(t *testing.T, w *workload.Workload, reports []*results.Report, probe string) Exposure {
	t.Helper()
	for _, e := range exposures(w, reports, &Option{Kind: Lock, Probe: probe}) {
		if e.Kind == backend.HostCrashFault {
			return e
		}
	}
	t.Fatalf("%s: no host_crash exposure", probe)
	return Exposure{}
}

// A crash of the master that never fsyncs yet kept the lock contradicts the model:
// the lab's count is then not carried to the workload (missing evidence).
func TestAHostCrashThatKeptTheLockContradictsTheModel(t *testing.T) {
	w := loadWorkload(t, "testdata/correctness.yaml")
	v := lostEvery("single/appendfsync-no", 5)
	v.Add(results.Trial{N: 5, Outcome: results.Judged, Proof: []string{"by hand"},
		Counts: map[results.Measure]int{results.LostLocks: 0, results.Violations: 0}})
	single := hostCrashOf(t, w, adrtest.HandReport("host-crash", v), "single")
	if single.Model == nil || !strings.Contains(single.Model.Contradicted, "1 of 6 judged crashes") {
		t.Fatalf("model %+v: want it contradicted by the crash that kept the lock", single.Model)
	}
	if single.Mutex == nil || single.Mutex.Uncounted == "" {
		t.Errorf("single under host_crash counted on a contradicted model: %+v", single.Mutex)
	}
}
