package crashfs

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// rebuild rewrites the backing directory to the durable record and forgets the live
// state: after it, live and durable agree. Callers hold f.gate exclusively.
func (f *FS) rebuild() error {
	names, err := readNames(f.backing)
	if err != nil {
		return err
	}
	for _, name := range names {
		if err := os.RemoveAll(filepath.Join(f.backing, name)); err != nil {
			return err
		}
	}
	rootSt, err := lstat(f.backing)
	if err != nil {
		return err
	}
	made := map[*object]string{f.root: f.backing}
	byIno := map[uint64]*object{rootSt.Ino: f.root}
	if err := f.rebuildDir(f.root, f.backing, made, byIno); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.byIno = byIno
	for o := range made {
		o.dirty = nil
	}
	return f.dropShadowsBut(made)
}

// rebuildDir makes directory o's durable entries under path, recursively. An object
// made already is hard-linked (a file) or left at its first name (a directory).
func (f *FS) rebuildDir(o *object, path string, made map[*object]string, byIno map[uint64]*object) error {
	names := make([]string, 0, len(o.entries))
	for name := range o.entries {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		child, childPath := o.entries[name], filepath.Join(path, name)
		if first, ok := made[child]; ok {
			if child.kind == modeDir {
				continue
			}
			if err := os.Link(first, childPath); err != nil {
				return err
			}
			continue
		}
		if err := f.makeObject(child, childPath); err != nil {
			return err
		}
		made[child] = childPath
		st, err := lstat(childPath)
		if err != nil {
			return err
		}
		byIno[st.Ino] = child
		if child.kind == modeDir {
			if err := f.rebuildDir(child, childPath, made, byIno); err != nil {
				return err
			}
		}
		if err := restoreMeta(child, childPath); err != nil {
			return err
		}
	}
	return nil
}

// makeObject creates o's durable self at path: a directory empty, a file with its
// durable content, a link to its target, anything else as a node of its type.
func (f *FS) makeObject(o *object, path string) error {
	switch o.kind {
	case modeDir:
		return os.Mkdir(path, 0o700)
	case modeRegular:
		if o.synced {
			return copyFile(o.shadowPath(f.shadow), path)
		}
		return os.WriteFile(path, nil, 0o600)
	case modeSymlink:
		return os.Symlink(o.target, path)
	default:
		return unix.Mknod(path, o.kind|o.mode, int(o.rdev))
	}
}

// restoreMeta gives path o's durable owner and permission bits.
func restoreMeta(o *object, path string) error {
	if err := os.Lchown(path, int(o.uid), int(o.gid)); err != nil && !errors.Is(err, syscall.EPERM) {
		return err
	}
	if o.kind == modeSymlink {
		return nil
	}
	return syscall.Chmod(path, o.mode)
}

// dropShadowsBut deletes the durable copies of every object not in keep.
func (f *FS) dropShadowsBut(keep map[*object]string) error {
	kept := map[string]bool{}
	for o := range keep {
		kept[strconv.FormatUint(o.id, 10)] = true
	}
	names, err := readNames(f.shadow)
	if err != nil {
		return err
	}
	var errs []error
	for _, name := range names {
		if !kept[name] {
			errs = append(errs, os.Remove(filepath.Join(f.shadow, name)))
		}
	}
	return errors.Join(errs...)
}
