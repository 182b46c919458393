package all_test

import (
	"testing"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/lockstest"
)

// Every strategy of every store, on its own shared deployment, keeps the counter exact.
func TestEveryStrategyConforms(t *testing.T) {
	for _, name := range locks.Strategies() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			// Speed bounds are not what conformance tests.
			l, _ := lockstest.SharedStrategy(t, name, lockstest.PatientOptions())
			lockstest.Conformance(t, l, 8, 25)
		})
	}
}
