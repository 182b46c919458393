package crashfs

import (
	"fmt"
	"strings"
)

// Report is what a crash threw away: everything the live state held that the durable
// record did not. Paths are relative to the mount point.
type Report struct {
	// Reverted are files whose name survives but whose content goes back to the last
	// fsync (or to empty, never fsynced), with how many bytes change.
	Reverted []Revert
	// Dropped are entries created or renamed in since their directory's last fsync:
	// they disappear (a directory with all it holds).
	Dropped []string
	// Replaced are names whose durable entry names another file than the live one
	// (a rename over them not made durable): they go back to the older file.
	Replaced []string
	// Restored are entries unlinked or renamed away since their directory's last
	// fsync: they come back.
	Restored []string
	// BytesDropped adds up the bytes that change: each reverted file's changed bytes,
	// and the live size of each regular file under a dropped or replaced name.
	BytesDropped int64
}

// Revert is one file whose content a crash took back.
type Revert struct {
	Path         string
	BytesChanged int64 // byte positions where the live and the durable content differ
}

// Lost says the crash threw anything away.
func (r Report) Lost() bool {
	return len(r.Reverted)+len(r.Dropped)+len(r.Replaced)+len(r.Restored) > 0
}

// String is a one-line summary, for logs and trial records.
func (r Report) String() string {
	if !r.Lost() {
		return "crash dropped nothing: all was fsynced"
	}
	var parts []string
	for _, v := range r.Reverted {
		parts = append(parts, fmt.Sprintf("reverted %s (%d bytes)", v.Path, v.BytesChanged))
	}
	for _, p := range r.Dropped {
		parts = append(parts, "dropped "+p)
	}
	for _, p := range r.Replaced {
		parts = append(parts, "replaced "+p)
	}
	for _, p := range r.Restored {
		parts = append(parts, "restored "+p)
	}
	return fmt.Sprintf("crash dropped %d bytes: %s", r.BytesDropped, strings.Join(parts, ", "))
}
