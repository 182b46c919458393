package testenv

import (
	"testing"

	"github.com/lockbench/lockbench/topologies"
)

// PauseSilences pauses n and fails unless answer then fails, then resumes it and fails
// unless answer succeeds again: a paused server keeps its sockets and answers nothing.
func PauseSilences(tb testing.TB, n topologies.Node, answer func() error) {
	tb.Helper()
	if err := n.Pause(); err != nil {
		tb.Fatal(err)
	}
	if err := answer(); err == nil {
		tb.Fatalf("paused %s answered", n.Name())
	}
	if err := n.Resume(); err != nil {
		tb.Fatal(err)
	}
	if err := answer(); err != nil {
		tb.Fatalf("%s after resume: %v", n.Name(), err)
	}
}
