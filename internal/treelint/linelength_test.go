package treelint

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxLineBytes is the longest line non-test Go code may have, counted in bytes as
// `awk 'length($0)>120'` counts them in the C.UTF-8 locale (a tab is one).
const maxLineBytes = 120

// TestNoNonTestGoLineIsOverTheLimit keeps lines readable: prose belongs in templates or
// in string literals joined across lines, long signatures and calls break after a comma.
func TestNoNonTestGoLineIsOverTheLimit(t *testing.T) {
	root := moduleRoot(t)
	var long []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		found, err := longLines(path)
		if err != nil {
			return err
		}
		for _, n := range found {
			rel, _ := filepath.Rel(root, path)
			long = append(long, fmt.Sprintf("%s:%d", rel, n))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(long) > 0 {
		t.Errorf("%d lines over %d bytes:\n%s", len(long), maxLineBytes, strings.Join(long, "\n"))
	}
}

// longLines is the line numbers of path's lines longer than maxLineBytes.
func longLines(path string) ([]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []int
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 4*1024*1024) // a generated table may hold a long line
	for n := 1; sc.Scan(); n++ {
		if len(sc.Bytes()) > maxLineBytes {
			out = append(out, n)
		}
	}
	return out, sc.Err()
}

// moduleRoot is the folder of the go.mod above the test's working directory.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = parent
	}
}
