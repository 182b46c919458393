package safety

import (
	"testing"

	"github.com/lockbench/lockbench/topologies/testenv"
)

// TestOneWayFlow: checkers and the results schema are pure: they never import what
// starts servers, takes locks or breaks things.
func TestOneWayFlow(t *testing.T) {
	pure := []string{testenv.Module + "safety/check", testenv.Module + "safety/results", testenv.Module + "safety/history"}
	deps := testenv.Deps(t, pure...)
	// clocks/faketime puts fake time on servers; the clocks package itself is pure
	// models, which the registry's specs name.
	for _, heavy := range []string{"topologies", "locks", "safety/nemesis", "clocks/faketime"} {
		if got := testenv.DependsOn(deps, testenv.Module+heavy); len(got) > 0 {
			t.Errorf("%v depend on %v", pure, got)
		}
	}
	// The listing must see what the lab itself imports, or the check above is blind.
	if got := testenv.DependsOn(testenv.Deps(t, testenv.Module+"safety/lab"), testenv.Module+"topologies"); len(got) == 0 {
		t.Error("go list -deps of the lab shows no topologies: the check is blind")
	}
}
