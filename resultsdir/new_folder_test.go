package resultsdir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPrepareRefusesAFolderThatHoldsARun(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	dir, latest, err := Prepare(out)
	if err != nil || dir != out || latest != "" {
		t.Fatalf("Prepare(%s) = %s, %q, %v", out, dir, latest, err)
	}
	if err := os.WriteFile(filepath.Join(out, "results.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Prepare(out); err == nil || !strings.Contains(err.Error(), "refusing to mix runs") {
		t.Errorf("Prepare of a folder with a run: %v", err)
	}
}

func TestCheckResumableSaysWhatIsThere(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]string{filepath.Join(t.TempDir(), "none"): "no such folder", file: "not a folder", t.TempDir(): ""} {
		err := CheckResumable(dir)
		if (want == "" && err != nil) || (want != "" && (err == nil || !strings.Contains(err.Error(), want))) {
			t.Errorf("%s: %v, want %q", dir, err, want)
		}
	}
}

func TestRoundedKeepsTheDigitsATableShows(t *testing.T) {
	for d, want := range map[Duration]string{1234567: "1.23ms", 12345: "12µs", 999: "999ns"} {
		if got := d.Rounded(); got != want {
			t.Errorf("%d ns: %s, want %s", int64(d), got, want)
		}
	}
}
