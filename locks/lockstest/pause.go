package lockstest

import "testing"

// Pausable is a server a test can stop and continue (a topologies.Node, say).
type Pausable interface {
	Pause() error
	Resume() error
}

// Pause pauses node for the rest of the test, or until the returned resume succeeds: a
// test that fails while it is paused never leaves a stopped server behind.
func Pause(t *testing.T, node Pausable) (resume func() error) {
	t.Helper()
	if err := node.Pause(); err != nil {
		t.Fatal(err)
	}
	paused := true
	t.Cleanup(func() {
		if paused {
			node.Resume()
		}
	})
	return func() error {
		if err := node.Resume(); err != nil {
			return err
		}
		paused = false
		return nil
	}
}
