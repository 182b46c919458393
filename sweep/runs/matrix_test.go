package runs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/sweep"
)

func TestMatrixRefusesAnUnknownPresetNamingTheKnownOnes(t *testing.T) {
	_, err := Matrix(sweep.WorkloadLock, false, "no-such", "")
	if err == nil || !strings.Contains(err.Error(), `--preset "no-such"`) || !strings.Contains(err.Error(), PresetNames()) {
		t.Errorf("%v: want the preset and the known ones named", err)
	}
}

// A deployment named relative to the config file is found beside it, wherever the
// command runs from; an empty file is refused rather than run as the default matrix.
func TestMatrixReadsTheConfigFileRelativeToItself(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "run.yaml")
	if err := os.WriteFile(file, []byte("deployment: servers.yaml\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := Matrix(sweep.WorkloadLock, true, "", file)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "servers.yaml"); cfg.Deployment != want {
		t.Errorf("deployment %q, want %q", cfg.Deployment, want)
	}
	empty := filepath.Join(dir, "empty.yaml")
	if err := os.WriteFile(empty, []byte("\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Matrix(sweep.WorkloadLock, false, "", empty); err == nil || !strings.Contains(err.Error(), "the file is empty") {
		t.Errorf("empty config: %v", err)
	}
}
