package violations

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/topologies/testenv"
)

// TestSafetyFiguresDoNotPullInTheLab keeps the safety figures light: it reads the safety results
// schema, never the lab that starts servers and takes locks.
func TestSafetyFiguresDoNotPullInTheLab(t *testing.T) {
	deps := testenv.Deps(t, testenv.Module+"plots/violations")
	for _, d := range deps {
		if d == testenv.Module+"safety" || strings.Contains(d, "etcd") {
			t.Errorf("plots/violations depends on %s", d)
		}
	}
	for _, heavy := range []string{"topologies", "locks", "safety/nemesis"} {
		if got := testenv.DependsOn(deps, testenv.Module+heavy); len(got) > 0 {
			t.Errorf("plots/violations depends on %v", got)
		}
	}
	// The listing must see the schema these figures read, or the check above proves nothing.
	if len(testenv.DependsOn(deps, testenv.Module+"safety/results")) == 0 {
		t.Errorf("go list -deps of plots/violations shows no safety/results: the check is blind")
	}
}
