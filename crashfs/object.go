package crashfs

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// object is one file, directory or link as crashfs tracks it, live and durable. Its
// identity outlives renames; a newly created inode is a new object even when the
// backing file system reuses an old inode number.
type object struct {
	id   uint64
	kind uint32 // syscall.S_IFREG, S_IFDIR, S_IFLNK or another S_IFMT type

	// The durable record, changed only by fsync.
	mode, uid, gid uint32
	rdev           uint64
	target         string             // a link's target
	synced         bool               // a regular file's content was made durable once (or held at Mount)
	entries        map[string]*object // a directory's durable entries; nil: none yet

	// Live state not yet durable.
	dirty extents // a regular file's bytes written since its last fsync
}

// shadowPath is where a regular file's durable content is kept.
func (o *object) shadowPath(dir string) string {
	return filepath.Join(dir, strconv.FormatUint(o.id, 10))
}

// recordMeta makes st's permission bits, owner and device number durable for o.
func (o *object) recordMeta(st *syscall.Stat_t) {
	o.mode = st.Mode &^ syscall.S_IFMT
	o.uid, o.gid = st.Uid, st.Gid
	o.rdev = st.Rdev
}

// fileKind is st's file type, as kept in object.kind.
func fileKind(st *syscall.Stat_t) uint32 { return st.Mode & syscall.S_IFMT }

// lstat is syscall.Lstat with an *os.PathError naming path.
func lstat(path string) (*syscall.Stat_t, error) {
	var st syscall.Stat_t
	if err := syscall.Lstat(path, &st); err != nil {
		return nil, &os.PathError{Op: "lstat", Path: path, Err: err}
	}
	return &st, nil
}
