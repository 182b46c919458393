package all_test

import (
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/lockstest"
)

// Every strategy of every store, on its own shared deployment, keeps the counter exact;
// a consensus store's counter locks for lockstest.SessionCounterTTL, as its own package's does.
func TestEveryStrategyConforms(t *testing.T) {
	for _, name := range locks.Strategies() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			spec, err := locks.TopologyFor(name)
			if err != nil {
				t.Fatal(err)
			}
			// Speed bounds are not what conformance tests.
			l, _ := lockstest.SharedStrategy(t, name, lockstest.PatientOptions())
			if backend.KindIs[backend.Consensus](linked.Catalog(), spec.Kind) {
				lockstest.ConformanceAt(t, l, lockstest.SessionCounterTTL, 8, 25)
				return
			}
			lockstest.Conformance(t, l, 8, 25)
		})
	}
}
