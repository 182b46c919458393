package release

import (
	"testing"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
)

// TestCheckThenDelete: the paused GET-then-DEL always deletes B's lock and lets C in
// beside B; the Lua release never does; under load the gap is hit on its own.
func TestCheckThenDelete(t *testing.T) {
	labtest.RunScenario(t, "check-then-delete", 2, lab.Params{"load": "1s"})
}
