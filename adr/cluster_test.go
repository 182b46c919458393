package adr

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/adr/adrtest"
	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/results"
)

// keyedVariant is a hand-made failover-loss variant of a keyed store, named and
// parametrised as the scenario writes them, n judged trials of which k lost the lock.
func keyedVariant(store, mode, delay string, n, k int) *results.Variant {
	v := adrtest.HandVariant(store+"/"+mode+"-delay-"+delay, results.Violations, n, k)
	v.Params = map[string]string{"strategy": store, "mode": mode, "delay": delay}
	return v
}

func exposureOf(t *testing.T, o *Option, k backend.Fault) Exposure {
	t.Helper()
	for _, e := range o.Faults {
		if e.Kind == k {
			return e
		}
	}
	t.Fatalf("%s has no %s exposure", o.Name, k)
	return Exposure{}
}

// cluster and cluster-wait are options priced from their benchmark cells and exposed
// under failover by the cluster's own failover-loss variants: no guard, then WAIT 1.
func TestTheClusterIsAnOptionPricedAndExposedByItsOwnVariants(t *testing.T) {
	d := decideSynthetic(t, "testdata/efficiency.yaml")
	for name, want := range map[string]struct {
		k, n    int
		variant string
	}{"cluster": {36, 40, "cluster/none-delay-"}, "cluster-wait": {0, 40, "cluster/wait1-delay-"}} {
		o := option(t, d, name)
		if o.Kind != Lock || !o.Cost.Measured || o.Cost.Servers != 6 || !strings.HasPrefix(o.Cost.Cell, "strategy="+name+"/") {
			t.Errorf("%s is not priced from its own cells: %+v", name, o.Cost)
		}
		e := exposureOf(t, o, backend.FailoverFault)
		if e.NA != "" || e.Mutex == nil || e.MutexIn != "failover-loss" {
			t.Fatalf("%s: failover %+v", name, e)
		}
		if e.Mutex.P.K != want.k || e.Mutex.P.N != want.n || len(e.Mutex.Variants) != 2 {
			t.Errorf("%s: failover %d of %d from %v, want %d of %d", name, e.Mutex.P.K, e.Mutex.P.N, e.Mutex.Variants, want.k, want.n)
		}
		for _, v := range e.Mutex.Variants {
			if !strings.HasPrefix(v, want.variant) {
				t.Errorf("%s's failover read %s, not the cluster's %s*", name, v, want.variant)
			}
		}
	}
	// Sentinel's own options read sentinel's variants only, not the cluster's.
	for _, v := range exposureOf(t, option(t, d, "sentinel"), backend.FailoverFault).Mutex.Variants {
		if strings.HasPrefix(v, "cluster/") {
			t.Errorf("sentinel's failover pools the cluster's %s", v)
		}
	}
}

// The cluster's options come from the results that hold them: safety variants alone
// give them with the cost not measured; sentinel's variants alone leave them out; and
// with no cluster variant a benchmarked cluster's failover is not measured, never
// read off sentinel's.
func TestTheClusterIsExposedOnlyWhereItsScenarioRan(t *testing.T) {
	names := func(in *Inputs) []string {
		var out []string
		for _, o := range Options(in) {
			out = append(out, o.Name)
		}
		return out
	}
	keyed := adrtest.HandReport("failover-loss", keyedVariant("cluster", "none", "0ms", 4, 4), keyedVariant("cluster", "wait1", "0ms", 4, 0))
	if got := strings.Join(names(&Inputs{Safety: keyed}), ","); got != "cluster,cluster-wait" {
		t.Errorf("options of the cluster's variants: %s", got)
	}
	onlyNone := adrtest.HandReport("failover-loss", keyedVariant("cluster", "none", "0ms", 4, 4), keyedVariant("cluster", "wait2", "0ms", 4, 0))
	if got := strings.Join(names(&Inputs{Safety: onlyNone}), ","); got != "cluster" {
		t.Errorf("a mode no cluster strategy is the guard of made options %s", got)
	}
	sentinel := adrtest.HandReport("failover-loss", adrtest.HandVariant("none-delay-0ms", results.Violations, 4, 4))
	if got := strings.Join(names(&Inputs{Safety: sentinel}), ","); got != "sentinel" {
		t.Errorf("options of sentinel's variants: %s", got)
	}
	w := loadWorkload(t, "testdata/efficiency.yaml")
	for _, o := range []*Option{{Name: "cluster", Kind: Lock, Probe: "cluster"}, {Name: "cluster-wait", Kind: Lock, Probe: "cluster-wait"}} {
		e := exposures(w, sentinel, o)[0]
		if e.Kind != backend.FailoverFault || e.NA != "" || e.Mutex != nil || e.MutexIn != "failover-loss" {
			t.Errorf("%s's failover without its variants: %+v", o.Name, e)
		}
		if e := exposures(w, keyed, o)[0]; e.Mutex == nil || e.Mutex.P.N != 4 {
			t.Errorf("%s's failover with its variants: %+v", o.Name, e)
		}
	}
}
