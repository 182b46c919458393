package safety

import "testing"

// TestCheckThenWriteLock: a check that said valid just before the lease ended was
// wrong at the write, every judged time: the unfenced resource takes the stale write,
// the fenced one refuses it. The checks land within the gap of the lease's end, so
// that nearly every trial is judged.
func TestCheckThenWriteLock(t *testing.T) {
	runScenario(t, "check-then-write-lock", 3, Params{"land": "4ms"})
}
