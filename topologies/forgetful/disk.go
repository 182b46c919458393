// Package forgetful is a node's data directory on crashfs, for the providers whose
// nodes can crash as a host does: mount, crash (keeping the report for the trial's
// proof), unmount. A helper process serves the mount (crashfs.MountInHelper). It knows
// nothing of the server that writes there.
package forgetful

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/lockbench/lockbench/crashfs"
	"github.com/lockbench/lockbench/topologies"
)

// Disk is one node's forgetful data directory.
type Disk struct {
	srv *crashfs.Helper // the process that serves the mount

	mu      sync.Mutex
	crashes int
	last    topologies.HostCrash
}

// Mount serves dir/data from dir/disk with durable, already fsynced, the
// subdirectories of data that provision names (a node up for a while has them on
// disk; a server that makes one on its first start may not fsync its parent).
func Mount(dir string, provision ...string) (*Disk, error) {
	backing, data := filepath.Join(dir, "disk"), DataDir(dir)
	for _, d := range []string{backing, data} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	srv, err := crashfs.MountInHelper(backing, data)
	if err != nil {
		return nil, err
	}
	for _, sub := range provision {
		if err := os.Mkdir(filepath.Join(data, sub), 0o755); err != nil {
			return nil, errors.Join(fmt.Errorf("forgetful disk: %w", err), srv.Unmount())
		}
	}
	if err := syncPath(data); err != nil {
		return nil, errors.Join(fmt.Errorf("forgetful disk: %w", err), srv.Unmount())
	}
	return &Disk{srv: srv}, nil
}

// DataName is the data directory's name under a node's dir, for servers told it relative.
const DataName = "data"

// DataDir is where, under a node's dir, its data sits when on a forgetful disk.
func DataDir(dir string) string { return filepath.Join(dir, DataName) }

// Crash throws away what the disk holds beyond its last fsyncs, and keeps the report.
// The node's process must be dead by then, as after a power loss.
func (d *Disk) Crash() error {
	r, err := d.srv.Crash()
	if err != nil {
		return fmt.Errorf("host crash: %w", err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.crashes++
	d.last = topologies.HostCrash{Lost: r.Lost(), BytesDropped: r.BytesDropped, Summary: r.String(), Count: d.crashes}
	return nil
}

// Last is what the last crash dropped; false before the first, and on a nil disk.
func (d *Disk) Last() (topologies.HostCrash, bool) {
	if d == nil {
		return topologies.HostCrash{}, false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.last, d.crashes > 0
}

// Unmount ends the mount, keeping the live state; safe on a nil disk and twice.
func (d *Disk) Unmount() error {
	if d == nil {
		return nil
	}
	return d.srv.Unmount()
}

// SettleEntries makes every name under the data directory durable (each directory
// fsynced), as a file system's journal commits its metadata a few seconds after it
// changed (ext4: 5 s): for servers that make files on their first start without
// fsyncing their directories. File contents stay as their own fsyncs left them.
func (d *Disk) SettleEntries() error {
	return d.syncTree(func(e os.DirEntry) bool { return e.IsDir() })
}

// WriteBack makes everything under the data directory durable, each file's content and
// each directory's entries, as a kernel's write-back does for data dirty longer than its
// expiry (Linux: 30 s): for a node up a while before the trial, whose server need not
// fsync (PostgreSQL with fsync off) yet whose older writes reached the disk all the same.
func (d *Disk) WriteBack() error {
	// A file opened read-only fsyncs its content as well.
	return d.syncTree(func(e os.DirEntry) bool { return e.IsDir() || e.Type().IsRegular() })
}

// syncTree fsyncs every entry under the data directory that pick takes; nothing on a nil disk.
func (d *Disk) syncTree(pick func(os.DirEntry) bool) error {
	if d == nil {
		return nil
	}
	return filepath.WalkDir(d.srv.Mountpoint(), func(path string, e os.DirEntry, err error) error {
		if err != nil || !pick(e) {
			return err
		}
		return syncPath(path)
	})
}

// syncPath fsyncs a directory or a file, making its entries or content durable.
func syncPath(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	return errors.Join(f.Sync(), f.Close())
}
