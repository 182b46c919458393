// Package golden holds what a test compares its output with: a file under testdata
// that the test rewrites when run with -update, after a deliberate change.
package golden

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// Check fails t when got differs from the golden file at path, showing the first line
// where they part; with update it writes got there first. pkg is the package's folder,
// for the command that rewrites the file.
func Check(t testing.TB, path, got string, update bool, pkg string) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./%s -update writes it)", err, pkg)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test ./%s -update rewrites it after a deliberate change):\n%s", path, pkg,
			FirstDiff(string(want), got))
	}
}

// Copy copies the folder dir (a sample under testdata) into a temp dir of t and returns
// it: a test that writes beside its input writes into the copy, never into testdata.
func Copy(t testing.TB, dir string) string {
	t.Helper()
	to := t.TempDir()
	if err := os.CopyFS(to, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	return to
}

// FirstDiff shows the first line where two texts part, or "" where none does.
func FirstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\nwant: %s\ngot:  %s", i+1, wl, gl)
		}
	}
	return ""
}
