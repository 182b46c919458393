package safety

import "testing"

// TestCheckThenDelete: the paused GET-then-DEL always deletes B's lock and lets C in
// beside B; the Lua release never does; under load the gap is hit on its own.
func TestCheckThenDelete(t *testing.T) {
	runScenario(t, "check-then-delete", 2, Params{"load": "1s"})
}
