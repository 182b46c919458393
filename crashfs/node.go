package crashfs

import (
	"context"
	"path/filepath"
	"syscall"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
)

// node is a loopback node whose every change to the backing directory passes the
// crash gate and is recorded: new inodes become new objects, opened files get
// handles that record writes and fsyncs, directories get handles that record fsyncs.
type node struct {
	*fs.LoopbackNode
	cfs *FS
	m   *mount
}

// WrapChild makes every node below the root a crashfs node of the same mount.
func (n *node) WrapChild(_ context.Context, ops fs.InodeEmbedder) fs.InodeEmbedder {
	return &node{LoopbackNode: ops.(*fs.LoopbackNode), cfs: n.cfs, m: n.m}
}

// backingPath is the node's path in the backing directory.
func (n *node) backingPath() string {
	return filepath.Join(n.RootData.Path, n.Path(n.RootData.RootNode.EmbeddedInode()))
}

// leave ends an operation enter admitted.
func (n *node) leave() { n.cfs.gate.RUnlock() }

func (n *node) Create(ctx context.Context, name string, flags, mode uint32,
	out *fuse.EntryOut) (*fs.Inode, fs.FileHandle, uint32, syscall.Errno) {
	if !n.cfs.enter(n.m) {
		return nil, nil, 0, syscall.EIO
	}
	defer n.leave()
	path := filepath.Join(n.backingPath(), name)
	// The kernel holds the directory's lock across CREATE, so nothing makes the name between.
	_, err := lstat(path)
	existed := err == nil
	child, fh, fuseFlags, errno := n.LoopbackNode.Create(ctx, name, flags, mode, out)
	if errno != 0 {
		return nil, nil, 0, errno
	}
	if !existed {
		n.cfs.created(path)
	}
	h, errno := n.cfs.newHandle(n.m, fh, flags)
	if errno != 0 {
		return nil, nil, 0, errno
	}
	return child, h, fuseFlags, 0
}

func (n *node) Open(ctx context.Context, flags uint32) (fs.FileHandle, uint32, syscall.Errno) {
	if !n.cfs.enter(n.m) {
		return nil, 0, syscall.EIO
	}
	defer n.leave()
	fh, fuseFlags, errno := n.LoopbackNode.Open(ctx, flags)
	if errno != 0 {
		return nil, 0, errno
	}
	h, errno := n.cfs.newHandle(n.m, fh, flags)
	return h, fuseFlags, errno
}

func (n *node) Mkdir(ctx context.Context, name string, mode uint32, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	return n.creating(name, func() (*fs.Inode, syscall.Errno) { return n.LoopbackNode.Mkdir(ctx, name, mode, out) })
}

func (n *node) Mknod(ctx context.Context, name string, mode, rdev uint32,
	out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	return n.creating(name, func() (*fs.Inode, syscall.Errno) {
		return n.LoopbackNode.Mknod(ctx, name, mode, rdev, out)
	})
}

func (n *node) Symlink(ctx context.Context, target, name string, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	return n.creating(name, func() (*fs.Inode, syscall.Errno) {
		return n.LoopbackNode.Symlink(ctx, target, name, out)
	})
}

// creating makes name in this directory by mk, behind the gate, and records the new
// entry once it exists.
func (n *node) creating(name string, mk func() (*fs.Inode, syscall.Errno)) (*fs.Inode, syscall.Errno) {
	if !n.cfs.enter(n.m) {
		return nil, syscall.EIO
	}
	defer n.leave()
	child, errno := mk()
	if errno == 0 {
		n.cfs.created(filepath.Join(n.backingPath(), name))
	}
	return child, errno
}

// Link, Rename, Unlink and Rmdir change only live entries: they pass the gate, and
// what they did becomes durable when the directories involved are fsynced.
func (n *node) Link(ctx context.Context, target fs.InodeEmbedder, name string,
	out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	if !n.cfs.enter(n.m) {
		return nil, syscall.EIO
	}
	defer n.leave()
	return n.LoopbackNode.Link(ctx, target, name, out)
}

func (n *node) Rename(ctx context.Context, name string, newParent fs.InodeEmbedder, newName string,
	flags uint32) syscall.Errno {
	if !n.cfs.enter(n.m) {
		return syscall.EIO
	}
	defer n.leave()
	return n.LoopbackNode.Rename(ctx, name, newParent, newName, flags)
}

func (n *node) Unlink(ctx context.Context, name string) syscall.Errno {
	if !n.cfs.enter(n.m) {
		return syscall.EIO
	}
	defer n.leave()
	return n.LoopbackNode.Unlink(ctx, name)
}

func (n *node) Rmdir(ctx context.Context, name string) syscall.Errno {
	if !n.cfs.enter(n.m) {
		return syscall.EIO
	}
	defer n.leave()
	return n.LoopbackNode.Rmdir(ctx, name)
}

// Setattr records a size change (truncate) as a write from the new size on.
func (n *node) Setattr(ctx context.Context, f fs.FileHandle, in *fuse.SetAttrIn, out *fuse.AttrOut) syscall.Errno {
	if !n.cfs.enter(n.m) {
		return syscall.EIO
	}
	defer n.leave()
	if errno := n.LoopbackNode.Setattr(ctx, f, in, out); errno != 0 {
		return errno
	}
	size, ok := in.GetSize()
	if !ok {
		return 0
	}
	o, err := n.objectOfHandleOrPath(f)
	if err != nil {
		return fs.ToErrno(err)
	}
	n.cfs.wrote(o, int64(size), toEnd)
	return 0
}

// objectOfHandleOrPath is the object f was opened on or, without f, the one at the node's path.
func (n *node) objectOfHandleOrPath(f fs.FileHandle) (*object, error) {
	if h, ok := f.(*handle); ok {
		return h.obj, nil
	}
	return n.cfs.objectAt(n.backingPath())
}

// CopyFileRange is refused, so the kernel copies with reads and writes we record.
func (n *node) CopyFileRange(context.Context, fs.FileHandle, uint64, *fs.Inode, fs.FileHandle, uint64,
	uint64, uint64) (uint32, syscall.Errno) {
	return 0, syscall.ENOTSUP
}

// OpendirHandle gives directories a handle whose fsync is recorded.
func (n *node) OpendirHandle(context.Context, uint32) (fs.FileHandle, uint32, syscall.Errno) {
	ds, errno := fs.NewLoopbackDirStream(n.backingPath())
	if errno != 0 {
		return nil, 0, errno
	}
	return newDirHandle(ds, n)
}
