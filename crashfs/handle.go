package crashfs

import (
	"context"
	"syscall"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
)

// handle is an open file: a loopback file whose writes and fsyncs are recorded.
type handle struct {
	*fs.LoopbackFile
	cfs *FS
	m   *mount
	obj *object
}

// newHandle wraps the loopback file fh opened with flags on m; O_TRUNC counts as a write.
func (f *FS) newHandle(m *mount, fh fs.FileHandle, flags uint32) (*handle, syscall.Errno) {
	lf, ok := fh.(*fs.LoopbackFile)
	if !ok {
		return nil, syscall.EIO
	}
	fd, ok := lf.PassthroughFd()
	if !ok {
		lf.Release(context.Background())
		return nil, syscall.EBADF
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		lf.Release(context.Background())
		return nil, fs.ToErrno(err)
	}
	h := &handle{LoopbackFile: lf, cfs: f, m: m, obj: f.objectOf(&st)}
	if flags&syscall.O_TRUNC != 0 {
		f.wrote(h.obj, 0, toEnd)
	}
	return h, 0
}

// PassthroughFd refuses kernel passthrough: its writes would bypass the record.
func (h *handle) PassthroughFd() (int, bool) { return -1, false }

func (h *handle) Write(ctx context.Context, data []byte, off int64) (uint32, syscall.Errno) {
	if !h.cfs.enter(h.m) {
		return 0, syscall.EIO
	}
	defer h.cfs.gate.RUnlock()
	n, errno := h.LoopbackFile.Write(ctx, data, off)
	if n > 0 {
		h.cfs.wrote(h.obj, off, off+int64(n))
	}
	return n, errno
}

// Allocate records the range as written: a punched hole or zeroed range changes data.
func (h *handle) Allocate(ctx context.Context, off, size uint64, mode uint32) syscall.Errno {
	if !h.cfs.enter(h.m) {
		return syscall.EIO
	}
	defer h.cfs.gate.RUnlock()
	errno := h.LoopbackFile.Allocate(ctx, off, size, mode)
	if errno == 0 {
		h.cfs.wrote(h.obj, int64(off), int64(off+size))
	}
	return errno
}

// Fsync (and fdatasync, treated alike) makes the file's content durable. The backing
// file is not synced: the durable record, not the backing disk, is what a crash keeps.
func (h *handle) Fsync(_ context.Context, _ uint32) syscall.Errno {
	if !h.cfs.enter(h.m) {
		return syscall.EIO
	}
	defer h.cfs.gate.RUnlock()
	fd, ok := h.LoopbackFile.PassthroughFd()
	if !ok {
		return syscall.EBADF
	}
	return fs.ToErrno(h.cfs.syncFile(h.obj, fd))
}

// dirHandle is an open directory: a loopback directory stream whose fsync is recorded.
type dirHandle struct {
	stream interface {
		fs.FileReaddirenter
		fs.FileSeekdirer
		fs.FileReleasedirer
	}
	n *node
}

// newDirHandle wraps the loopback stream ds of directory n.
func newDirHandle(ds fs.DirStream, n *node) (*dirHandle, uint32, syscall.Errno) {
	s, ok := ds.(interface {
		fs.FileReaddirenter
		fs.FileSeekdirer
		fs.FileReleasedirer
	})
	if !ok {
		ds.Close()
		return nil, 0, syscall.ENOTSUP
	}
	return &dirHandle{stream: s, n: n}, 0, 0
}

func (d *dirHandle) Readdirent(ctx context.Context) (*fuse.DirEntry, syscall.Errno) {
	return d.stream.Readdirent(ctx)
}

func (d *dirHandle) Seekdir(ctx context.Context, off uint64) syscall.Errno {
	return d.stream.Seekdir(ctx, off)
}

func (d *dirHandle) Releasedir(ctx context.Context, flags uint32) { d.stream.Releasedir(ctx, flags) }

// Fsyncdir makes the directory's entries durable.
func (d *dirHandle) Fsyncdir(context.Context, uint32) syscall.Errno {
	cfs := d.n.cfs
	if !cfs.enter(d.n.m) {
		return syscall.EIO
	}
	defer cfs.gate.RUnlock()
	path := d.n.backingPath()
	o, err := cfs.objectAt(path)
	if err != nil {
		return fs.ToErrno(err)
	}
	return fs.ToErrno(cfs.syncDir(o, path))
}
