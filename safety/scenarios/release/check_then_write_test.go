package release

import (
	"testing"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
)

// TestCheckThenWriteLock: a check that said valid just before the lease ended was
// wrong at the write, every judged time: the unfenced resource takes the stale write,
// the fenced one refuses it. The checks land within the gap of the lease's end, so
// that nearly every trial is judged; on a loaded machine a check's own round trip can
// land after the end (fault not produced), so each variant gets 8 chances (about 0.1 s each).
func TestCheckThenWriteLock(t *testing.T) {
	labtest.RunScenario(t, "check-then-write-lock", 8, lab.Params{"land": "4ms"})
}
