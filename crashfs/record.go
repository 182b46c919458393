package crashfs

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// The file types crashfs tells apart; others (fifos, sockets, devices) are kept as nodes.
const (
	modeRegular = syscall.S_IFREG
	modeDir     = syscall.S_IFDIR
	modeSymlink = syscall.S_IFLNK
)

// newObject makes a new object for the inode st describes, with nothing durable yet
// beyond its existence as an object: no content, no entries. Callers hold f.mu or
// have f to themselves.
func (f *FS) newObject(st *syscall.Stat_t) *object {
	f.nextID++
	o := &object{id: f.nextID, kind: fileKind(st)}
	f.byIno[st.Ino] = o
	return o
}

// created records that path is a new inode, made by the operation that just ran.
func (f *FS) created(path string) {
	st, err := lstat(path)
	if err != nil {
		return // gone again already: a later lookup adopts whatever is there
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.newObject(st)
}

// objectOf is the object of the live inode st describes; one crashfs never saw made
// (nothing should be) becomes a new object with nothing durable.
func (f *FS) objectOf(st *syscall.Stat_t) *object {
	f.mu.Lock()
	defer f.mu.Unlock()
	if o, ok := f.byIno[st.Ino]; ok && o.kind == fileKind(st) {
		return o
	}
	return f.newObject(st)
}

// objectAt is the object of the live inode at path.
func (f *FS) objectAt(path string) (*object, error) {
	st, err := lstat(path)
	if err != nil {
		return nil, err
	}
	return f.objectOf(st), nil
}

// wrote records that o's bytes [start, end) changed and are not durable.
func (f *FS) wrote(o *object, start, end int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	o.dirty = o.dirty.add(start, end)
}

// syncFile makes the content of o, open as descriptor fd, durable: the ranges written
// since its last fsync are copied into its durable copy, cut to the live size.
func (f *FS) syncFile(o *object, fd int) error {
	f.mu.Lock()
	dirty := o.dirty
	o.dirty = nil // writes that race this fsync stay dirty for the next one
	f.mu.Unlock()
	// Reopened read-only: the server's descriptor may be write-only.
	live, err := os.Open(fmt.Sprintf("/proc/self/fd/%d", fd))
	if err != nil {
		return f.redirty(o, dirty, err)
	}
	defer live.Close()
	var st syscall.Stat_t
	if err := syscall.Fstat(int(live.Fd()), &st); err != nil {
		return f.redirty(o, dirty, err)
	}
	f.syncMu.Lock()
	defer f.syncMu.Unlock()
	shadow, err := os.OpenFile(o.shadowPath(f.shadow), os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return f.redirty(o, dirty, err)
	}
	defer shadow.Close()
	for _, x := range dirty {
		if err := copyRange(live, shadow, x.start, min(x.end, st.Size)); err != nil {
			return f.redirty(o, dirty, err)
		}
	}
	if err := shadow.Truncate(st.Size); err != nil {
		return f.redirty(o, dirty, err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	o.synced = true
	o.recordMeta(&st)
	return nil
}

// redirty puts back the ranges a failed fsync did not make durable, and returns err.
func (f *FS) redirty(o *object, dirty extents, err error) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, x := range dirty {
		o.dirty = o.dirty.add(x.start, x.end)
	}
	return err
}

// syncDir makes directory o's live entries, at path, durable: each name with the
// object it names, that object's mode and owner, and a link's target; and o's own
// mode and owner, as fsync makes a directory's inode durable.
func (f *FS) syncDir(o *object, path string) error {
	self, err := lstat(path)
	if err != nil {
		return err
	}
	names, err := readNames(path)
	if err != nil {
		return err
	}
	entries := make(map[string]*object, len(names))
	for _, name := range names {
		childPath := filepath.Join(path, name)
		st, err := lstat(childPath)
		if os.IsNotExist(err) {
			continue // removed while we listed: a race with this fsync, either way is right
		}
		if err != nil {
			return err
		}
		child := f.objectOf(st)
		var target string
		if child.kind == modeSymlink {
			if target, err = os.Readlink(childPath); err != nil {
				return err
			}
		}
		f.mu.Lock()
		child.recordMeta(st)
		if child.kind == modeSymlink {
			child.target = target
		}
		f.mu.Unlock()
		entries[name] = child
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	o.entries = entries
	o.recordMeta(self)
	return nil
}
