package testenv

import "testing"

// TestTailKeepsTheEnd: a child's stderr is cut from the front, so its last words (a
// panic's stack, a fatal error) survive however much it wrote before.
func TestTailKeepsTheEnd(t *testing.T) {
	b := &tail{max: 8}
	b.Write([]byte("0123456"))
	b.Write([]byte("789abc"))
	if got := b.String(); got != "56789abc" {
		t.Fatalf("kept %q, want the last 8 bytes %q", got, "56789abc")
	}
	b.Write([]byte("a line longer than max"))
	if got := b.String(); got != "than max" {
		t.Fatalf("kept %q, want %q", got, "than max")
	}
}
