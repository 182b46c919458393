package resultsdir

import (
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/lockbench/lockbench/internal/usage"
)

// Prepare makes the results folder of a new run: out if given (it must not hold
// anything), else results/<timestamp>, with latest (results/latest) to point at it
// once the run is over.
func Prepare(out string) (dir, latest string, err error) {
	if out == "" {
		out = filepath.Join("results", time.Now().Format("20060102-150405"))
		latest = filepath.Join("results", "latest")
	}
	if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
		return "", "", usage.Errorf("--out %s: folder exists and is not empty; refusing to mix runs", out)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", "", usage.Errorf("--out %s: %v", out, err)
	}
	return out, latest, nil
}

// PointLatest makes latest a symlink to the newest run, dir (best effort).
func PointLatest(latest, dir string) {
	tmp := latest + ".tmp"
	os.Remove(tmp)
	if os.Symlink(filepath.Base(dir), tmp) == nil {
		os.Rename(tmp, latest)
	}
}

// CheckResumable refuses a folder to resume that is not there, before anything reads
// or writes: a typo must not start a run somewhere else.
func CheckResumable(dir string) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return usage.Errorf("--resume %s: no such folder", dir)
	case err != nil:
		return usage.Errorf("--resume %s: %v", dir, err)
	case !st.IsDir():
		return usage.Errorf("--resume %s: not a folder", dir)
	}
	return nil
}
