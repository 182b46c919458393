package forgetful_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/lockbench/lockbench/topologies/forgetful"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// WriteBack keeps what was written before it through a crash, file and name alike,
// and nothing written after it: the kernel's write-back for a node up a while.
func TestWriteBackKeepsOnlyWhatCameBeforeIt(t *testing.T) {
	testenv.NeedsServers(t)
	if _, err := os.Stat("/dev/fuse"); err != nil {
		testenv.MissingTool(t, err)
	}
	if _, err := exec.LookPath("fusermount3"); err != nil && os.Geteuid() != 0 {
		testenv.MissingTool(t, err)
	}
	dir := t.TempDir()
	disk, err := forgetful.Mount(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = disk.Unmount() })
	data := forgetful.DataDir(dir)
	older, newer := filepath.Join(data, "sub", "older"), filepath.Join(data, "newer")
	if err := os.Mkdir(filepath.Dir(older), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(older, []byte("before"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := disk.WriteBack(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(older, []byte("after!"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(newer, []byte("after"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := disk.Crash(); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(older); err != nil || string(b) != "before" {
		t.Errorf("after the crash, %s holds %q (%v): want what was written back, %q", older, b, err, "before")
	}
	if _, err := os.Stat(newer); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("after the crash, %s: %v, want it gone: it came after the write-back", newer, err)
	}
	if c, ok := disk.Last(); !ok || c.Count != 1 || !c.Lost {
		t.Errorf("last crash %+v (%v): want the first, with something lost", c, ok)
	}
}
