package crashfs_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Each directory's entries are durable on their own: a move between directories
// is kept in the one that was fsynced.
func TestRenameAcrossDirectoriesIsDurableInEachDirectorySeparately(t *testing.T) {
	for _, tc := range []struct {
		synced    string // the directory fsynced after the move
		wantNames []string
	}{
		{"to", []string{"from/file", "to/file"}}, // kept twice, as hard links
		{"from", nil},                            // lost
	} {
		t.Run("fsync "+tc.synced, func(t *testing.T) {
			fsys := mountForTest(t, map[string]string{"from/file": "moved", "to/.keep": ""})
			dir := fsys.Mountpoint()
			if err := os.Rename(filepath.Join(dir, "from", "file"), filepath.Join(dir, "to", "file")); err != nil {
				t.Fatal(err)
			}
			syncDir(t, filepath.Join(dir, tc.synced))
			crash(t, fsys)
			var names []string
			for _, name := range []string{"from/file", "to/file"} {
				if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
					names = append(names, name)
					wantContent(t, filepath.Join(dir, name), "moved")
				}
			}
			if !slices.Equal(names, tc.wantNames) {
				t.Fatalf("after crash the file is at %v, want %v", names, tc.wantNames)
			}
		})
	}
}

func TestHardAndSymbolicLinksSurviveThroughTheirDirectorysFsync(t *testing.T) {
	fsys := mountForTest(t, map[string]string{"target": "shared"})
	dir := fsys.Mountpoint()
	if err := os.Link(filepath.Join(dir, "target"), filepath.Join(dir, "hard")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("target", filepath.Join(dir, "soft")); err != nil {
		t.Fatal(err)
	}
	syncDir(t, dir)
	if r := crash(t, fsys); r.Lost() {
		t.Fatalf("links made durable reported lost: %v", r)
	}
	wantContent(t, filepath.Join(dir, "hard"), "shared")
	if got, err := os.Readlink(filepath.Join(dir, "soft")); err != nil || got != "target" {
		t.Fatalf("symbolic link after crash: %q, %v", got, err)
	}
	a, errA := os.Stat(filepath.Join(dir, "target"))
	b, errB := os.Stat(filepath.Join(dir, "hard"))
	if errA != nil || errB != nil || !os.SameFile(a, b) {
		t.Fatalf("target and hard are no longer one file after the crash (%v, %v)", errA, errB)
	}
}
