package crashfs_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/lockbench/lockbench/crashfs"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// mountForTest mounts a fresh crashfs over a temporary backing directory, holding what
// seed names (path: content) as durable, and unmounts it when t ends, pass or fail.
func mountForTest(t *testing.T, seed map[string]string) *crashfs.FS {
	t.Helper()
	needsFUSE(t)
	backing, mountpoint := t.TempDir(), t.TempDir()
	for path, content := range seed {
		full := filepath.Join(backing, path)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return mountAt(t, backing, mountpoint)
}

// mountAt mounts a crashfs over backing at mountpoint, unmounted when t ends.
func mountAt(t *testing.T, backing, mountpoint string) *crashfs.FS {
	t.Helper()
	fsys, err := crashfs.Mount(backing, mountpoint)
	unmountAtEnd(t, fsys, err)
	return fsys
}

// needsFUSE skips under -short, and skips (fails under CI=true) without /dev/fuse or fusermount.
func needsFUSE(t *testing.T) {
	t.Helper()
	testenv.NeedsServers(t)
	if _, err := os.Stat("/dev/fuse"); err != nil {
		testenv.MissingTool(t, err)
	}
	_, err3 := exec.LookPath("fusermount3")
	_, err2 := exec.LookPath("fusermount")
	if err3 != nil && err2 != nil && os.Geteuid() != 0 {
		testenv.MissingTool(t, errors.Join(err3, err2))
	}
}

// mountInHelper is mountAt served by a helper process (crashfs.MountInHelper).
func mountInHelper(t *testing.T, backing, mountpoint string) *crashfs.Helper {
	t.Helper()
	h, err := crashfs.MountInHelper(backing, mountpoint)
	unmountAtEnd(t, h, err)
	return h
}

// unmountAtEnd fails t on a mount's error, else unmounts it when t ends.
func unmountAtEnd(t *testing.T, m interface{ Unmount() error }, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := m.Unmount(); err != nil {
			t.Errorf("unmount: %v", err)
		}
	})
}

// crashable is a mount served by this process (crashfs.FS) or by a helper.
type crashable interface {
	Mountpoint() string
	Crash() (crashfs.Report, error)
}

// crash crashes fsys and fails t if that fails.
func crash(t *testing.T, fsys crashable) crashfs.Report {
	t.Helper()
	r, err := fsys.Crash()
	if err != nil {
		t.Fatalf("crash: %v", err)
	}
	t.Log(r)
	return r
}

// writeFile creates (or truncates) path with content; sync says whether to fsync it.
func writeFile(t *testing.T, path, content string, sync bool) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(content); err != nil {
		t.Fatal(err)
	}
	if sync {
		if err := f.Sync(); err != nil {
			t.Fatalf("fsync %s: %v", path, err)
		}
	}
}

// syncDir fsyncs directory dir.
func syncDir(t *testing.T, dir string) {
	t.Helper()
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		t.Fatalf("fsync directory %s: %v", dir, err)
	}
}

// wantContent fails t unless path holds want.
func wantContent(t *testing.T, path, want string) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("after crash: %v", err)
	}
	if string(got) != want {
		t.Fatalf("after crash %s holds %q, want %q", path, got, want)
	}
}

// wantMissing fails t unless path does not exist.
func wantMissing(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("after crash %s: want it gone, lstat says %v", path, err)
	}
}
