package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// folderBytes reads every file under dir: a refused --resume must change none.
func folderBytes(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		files[path] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// copyFolder copies dir's files into a new temp folder.
func copyFolder(t *testing.T, dir string) string {
	t.Helper()
	to := filepath.Join(t.TempDir(), filepath.Base(dir))
	for path, data := range folderBytes(t, dir) {
		rel, _ := filepath.Rel(dir, path)
		if err := os.MkdirAll(filepath.Dir(filepath.Join(to, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, rel), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return to
}

// otherRedisServer rewrites the redis-server version results.json recorded in dir.
func otherRedisServer(t *testing.T, dir string) {
	t.Helper()
	editResultsJSON(t, dir, func(path string, b []byte) []byte {
		old := `"redis_server": "`
		if !bytes.Contains(b, []byte(old)) {
			t.Fatalf("%s records no redis_server: the refusal below would prove nothing", path)
		}
		return bytes.Replace(b, []byte(old), []byte(old+"Redis server v=0.0.1 (not this one) "), 1)
	})
}

// refusedResume runs args against folder and wants exit 2, a message naming want,
// and every byte of the folder as it was.
func refusedResume(t *testing.T, args []string, folder, want string) {
	t.Helper()
	before := folderBytes(t, folder)
	var stdout, stderr bytes.Buffer
	if code := run(args, nil, &stdout, &stderr); code != exitUsage {
		t.Errorf("%v: exit %d, want %d (%s%s)", args, code, exitUsage, stdout.String(), stderr.String())
	}
	if !strings.Contains(stderr.String(), want) {
		t.Errorf("%v: message %q does not name %q", args, stderr.String(), want)
	}
	after := folderBytes(t, folder)
	if len(after) != len(before) {
		t.Errorf("%v: %d files in the folder before, %d after", args, len(before), len(after))
	}
	for path, b := range before {
		if after[path] != b {
			t.Errorf("%v: %s changed", args, path)
		}
	}
}

func with(args []string, more ...string) []string {
	return append(append([]string{}, args...), more...)
}

// replaced is args with flag's value set to value.
func replaced(args []string, flag, value string) []string {
	out := with(args)
	for i := range out[:len(out)-1] {
		if out[i] == flag {
			out[i+1] = value
			return out
		}
	}
	return append(out, flag, value)
}
