package crashfs_test

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/lockbench/lockbench/crashfs"
)

func TestUnsyncedWritesAreLostAndSyncedFilesAreWhole(t *testing.T) {
	fsys := mountForTest(t, nil)
	dir := fsys.Mountpoint()
	writeFile(t, filepath.Join(dir, "synced"), "kept whole", true)
	writeFile(t, filepath.Join(dir, "unsynced"), "never fsynced", false)
	syncDir(t, dir) // both names durable; only one file's content is
	writeFile(t, filepath.Join(dir, "unnamed"), "fsynced, but not its directory", true)

	r := crash(t, fsys)
	wantContent(t, filepath.Join(dir, "synced"), "kept whole")
	wantContent(t, filepath.Join(dir, "unsynced"), "")
	wantMissing(t, filepath.Join(dir, "unnamed"))
	if want := []crashfs.Revert{{Path: "unsynced", BytesChanged: 13}}; !reflect.DeepEqual(r.Reverted, want) {
		t.Errorf("reverted %v, want %v", r.Reverted, want)
	}
	if want := []string{"unnamed"}; !slices.Equal(r.Dropped, want) {
		t.Errorf("dropped %v, want %v", r.Dropped, want)
	}
	if want := int64(13 + len("fsynced, but not its directory")); r.BytesDropped != want {
		t.Errorf("bytes dropped %d, want %d", r.BytesDropped, want)
	}
}

// The AOF rewrite's flow: a new file written and fsynced aside, renamed over the old.
func TestRenameSurvivesOnlyThroughItsDirectorysFsync(t *testing.T) {
	for _, dirSynced := range []bool{true, false} {
		t.Run(map[bool]string{true: "directory fsynced", false: "directory not fsynced"}[dirSynced], func(t *testing.T) {
			fsys := mountForTest(t, map[string]string{"data": "old"})
			dir := fsys.Mountpoint()
			writeFile(t, filepath.Join(dir, "temp"), "new", true)
			if err := os.Rename(filepath.Join(dir, "temp"), filepath.Join(dir, "data")); err != nil {
				t.Fatal(err)
			}
			if dirSynced {
				syncDir(t, dir)
			}
			r := crash(t, fsys)
			wantMissing(t, filepath.Join(dir, "temp"))
			if dirSynced {
				wantContent(t, filepath.Join(dir, "data"), "new")
				if r.Lost() {
					t.Errorf("a fully fsynced rename lost %v", r)
				}
				return
			}
			wantContent(t, filepath.Join(dir, "data"), "old")
			if want := []string{"data"}; !slices.Equal(r.Replaced, want) {
				t.Errorf("replaced %v, want %v", r.Replaced, want)
			}
		})
	}
}

func TestAppendAfterFsyncKeepsOnlyTheSyncedPrefix(t *testing.T) {
	fsys := mountForTest(t, nil)
	path := filepath.Join(fsys.Mountpoint(), "log")
	writeFile(t, path, "synced prefix;", true)
	syncDir(t, fsys.Mountpoint())
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("unsynced tail"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	r := crash(t, fsys)
	wantContent(t, path, "synced prefix;")
	if want := []crashfs.Revert{{Path: "log", BytesChanged: int64(len("unsynced tail"))}}; !reflect.DeepEqual(r.Reverted, want) {
		t.Errorf("reverted %v, want %v", r.Reverted, want)
	}
}

func TestCrashReportsNothingWhenAllWasSynced(t *testing.T) {
	fsys := mountForTest(t, map[string]string{"held at mount": "durable", "sub/removed": "x"})
	dir := fsys.Mountpoint()
	writeFile(t, filepath.Join(dir, "new"), "fsynced", true)
	if err := os.Remove(filepath.Join(dir, "sub", "removed")); err != nil {
		t.Fatal(err)
	}
	syncDir(t, filepath.Join(dir, "sub"))
	syncDir(t, dir)
	if r := crash(t, fsys); r.Lost() || r.BytesDropped != 0 {
		t.Fatalf("crash after everything was fsynced reported %v", r)
	}
	wantContent(t, filepath.Join(dir, "held at mount"), "durable")
	wantContent(t, filepath.Join(dir, "new"), "fsynced")
	wantMissing(t, filepath.Join(dir, "sub", "removed"))
	// A second crash with nothing written since finds nothing either.
	if r := crash(t, fsys); r.Lost() {
		t.Fatalf("second crash reported %v", r)
	}
}

func TestUnsyncedUnlinkAndTruncateComeBack(t *testing.T) {
	fsys := mountForTest(t, map[string]string{"unlinked": "back again", "truncated": "whole again"})
	dir := fsys.Mountpoint()
	if err := os.Remove(filepath.Join(dir, "unlinked")); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(dir, "truncated"), 5); err != nil {
		t.Fatal(err)
	}
	r := crash(t, fsys)
	wantContent(t, filepath.Join(dir, "unlinked"), "back again")
	wantContent(t, filepath.Join(dir, "truncated"), "whole again")
	if want := []string{"unlinked"}; !slices.Equal(r.Restored, want) {
		t.Errorf("restored %v, want %v", r.Restored, want)
	}
	if want := []crashfs.Revert{{Path: "truncated", BytesChanged: 6}}; !reflect.DeepEqual(r.Reverted, want) {
		t.Errorf("reverted %v, want %v", r.Reverted, want)
	}
}

// A directory's own fsync makes its entries durable, not its name in its parent.
func TestNewDirectoryNeedsItsParentsFsync(t *testing.T) {
	fsys := mountForTest(t, nil)
	dir := fsys.Mountpoint()
	for _, sub := range []string{"named", "unnamed"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, sub, "file"), sub, true)
		syncDir(t, filepath.Join(dir, sub))
		if sub == "named" {
			syncDir(t, dir)
		}
	}
	r := crash(t, fsys)
	wantContent(t, filepath.Join(dir, "named", "file"), "named")
	wantMissing(t, filepath.Join(dir, "unnamed"))
	if want := []string{"unnamed"}; !slices.Equal(r.Dropped, want) {
		t.Errorf("dropped %v, want %v", r.Dropped, want)
	}
	if info, err := os.Stat(filepath.Join(dir, "named")); err != nil || info.Mode().Perm() != 0o755 {
		t.Errorf("named directory after crash: %v, %v (want mode 0755)", info, err)
	}
}

// A process that outlives the crash (it should have been killed) cannot write on.
func TestFileOpenAcrossCrashFailsAndDoesNotLeak(t *testing.T) {
	fsys := mountForTest(t, nil)
	path := filepath.Join(fsys.Mountpoint(), "held")
	writeFile(t, path, "durable", true)
	syncDir(t, fsys.Mountpoint())
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	crash(t, fsys)
	_, writeErr := f.WriteString("late")
	syncErr := f.Sync()
	t.Logf("write after the crash: %v; fsync: %v", writeErr, syncErr)
	if writeErr == nil && syncErr == nil {
		t.Errorf("a write through a descriptor opened before the crash succeeded")
	}
	f.Close()
	wantContent(t, path, "durable")
}
