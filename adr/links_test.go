package adr

import (
	"path/filepath"
	"testing"
)

func TestResultsFoldersAreLinkedOnlyInsideTheRecordsFolder(t *testing.T) {
	root := t.TempDir()
	adrDir := filepath.Join(root, "adr-cor")
	inside := filepath.Join(adrDir, "lost-updates")
	if got, want := folderRef(adrDir, inside), "["+inside+"](lost-updates)"; got != want {
		t.Errorf("a folder inside: %q, want %q", got, want)
	}
	outside := filepath.Join(root, "adr-eff", "redlock-quorum")
	if got, want := folderRef(adrDir, outside), "`"+outside+"`, outside this record's folder"; got != want {
		t.Errorf("a folder outside: %q, want %q", got, want)
	}
	sibling := filepath.Join(root, "adr-cor..x")
	if _, ok := relInside(adrDir, sibling); ok {
		t.Errorf("%s counted inside %s", sibling, adrDir)
	}
}
