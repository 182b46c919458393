package adrtest

import (
	"os"
	"path/filepath"
	"testing"
)

// Folders writes the synthetic benchmark and safety folders into a temp dir of tb and
// returns them.
func Folders(tb testing.TB) (bench, safety string) {
	tb.Helper()
	root := tb.TempDir()
	bench, safety = filepath.Join(root, "bench"), filepath.Join(root, "safety")
	if err := os.MkdirAll(bench, 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := WriteBench(bench); err != nil {
		tb.Fatal(err)
	}
	if err := WriteSafety(safety); err != nil {
		tb.Fatal(err)
	}
	return bench, safety
}
