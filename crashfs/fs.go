package crashfs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
)

// FS is a crashfs mount: the backing directory served at the mount point, and the
// durable record of what fsync made safe.
type FS struct {
	backing, mountpoint string
	shadow              string // holds each regular file's durable content, by object id

	// gate is held shared by every operation that changes the live state or the
	// record, and exclusively by Crash and Unmount, so none runs across a crash.
	gate sync.RWMutex
	// life serializes Crash and Unmount, which end mounts and start them.
	life sync.Mutex
	// syncMu lets one fsync at a time write durable copies.
	syncMu sync.Mutex
	mu     sync.Mutex // guards the fields below
	root   *object
	// byIno maps a live backing inode number to its object.
	byIno  map[uint64]*object
	nextID uint64
	mount  *mount
	closed bool
}

// mount is one FUSE mount of the FS; a crash ends it and starts the next.
type mount struct {
	server *fuse.Server
	dead   atomic.Bool // set once Crash or Unmount began: operations fail with EIO
}

// Mount serves backing at mountpoint (both existing directories, neither inside the
// other), with everything backing holds now taken as durable.
func Mount(backing, mountpoint string) (*FS, error) {
	backing, err := filepath.Abs(backing)
	if err != nil {
		return nil, err
	}
	mountpoint, err = filepath.Abs(mountpoint)
	if err != nil {
		return nil, err
	}
	if within(backing, mountpoint) || within(mountpoint, backing) {
		return nil, fmt.Errorf("crashfs: backing %s and mount point %s must not contain each other", backing, mountpoint)
	}
	shadow, err := os.MkdirTemp("", "crashfs-durable-")
	if err != nil {
		return nil, err
	}
	f := &FS{backing: backing, mountpoint: mountpoint, shadow: shadow, byIno: map[uint64]*object{}}
	if err := f.adoptBacking(); err != nil {
		return nil, errors.Join(err, os.RemoveAll(shadow))
	}
	if err := f.serve(); err != nil {
		return nil, errors.Join(err, os.RemoveAll(shadow))
	}
	return f, nil
}

// Mountpoint is where the file system is mounted.
func (f *FS) Mountpoint() string { return f.mountpoint }

// Backing is the directory that holds the live state.
func (f *FS) Backing() string { return f.backing }

// serve mounts the backing directory at the mount point as a new mount.
func (f *FS) serve() error {
	embedder, err := fs.NewLoopbackRoot(f.backing)
	if err != nil {
		return err
	}
	m := &mount{}
	root := &node{LoopbackNode: embedder.(*fs.LoopbackNode), cfs: f, m: m}
	root.RootData.RootNode = root
	server, err := fs.Mount(f.mountpoint, root, &fs.Options{MountOptions: fuse.MountOptions{
		AllowOther:  os.Geteuid() == 0, // a server may run as its own user (PostgreSQL must)
		DirectMount: os.Geteuid() == 0, // mount(2) itself: no fusermount needed as root
		FsName:      f.backing,
		Name:        "crashfs",
	}})
	if err != nil {
		return fmt.Errorf("crashfs: mount %s at %s: %w", f.backing, f.mountpoint, err)
	}
	m.server = server
	f.mu.Lock()
	f.mount = m
	f.mu.Unlock()
	return nil
}

// Unmount ends the mount and drops the durable record; the backing directory keeps
// the live state, as a clean shutdown would. Calling it again does nothing.
func (f *FS) Unmount() error {
	f.life.Lock()
	defer f.life.Unlock()
	f.mu.Lock()
	m, closed := f.mount, f.closed
	f.closed = true
	f.mu.Unlock()
	if closed {
		return nil
	}
	var err error
	if m != nil {
		m.dead.Store(true)
		err = unmount(m, f.mountpoint)
	}
	f.gate.Lock() // wait for operations that were running
	defer f.gate.Unlock()
	return errors.Join(err, os.RemoveAll(f.shadow))
}

// enter admits an operation of mount m, or refuses it (false) once m is dead; an
// admitted operation calls f.gate.RUnlock when done.
func (f *FS) enter(m *mount) bool {
	f.gate.RLock()
	if m.dead.Load() {
		f.gate.RUnlock()
		return false
	}
	return true
}

// within says path is dir or lies under it (both absolute and clean).
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}
