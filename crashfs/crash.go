package crashfs

import (
	"errors"
)

// ErrUnmounted is returned by Crash after Unmount.
var ErrUnmounted = errors.New("crashfs: unmounted")

// Crash drops everything not fsynced, as a power loss would: it ends the mount
// (processes still on it see EIO), reports what the live state held beyond the
// durable record, rewrites the backing directory to the durable record and mounts
// it again at the same mount point, for the node to restart on.
func (f *FS) Crash() (Report, error) {
	f.life.Lock()
	defer f.life.Unlock()
	f.mu.Lock()
	m, closed := f.mount, f.closed
	f.mu.Unlock()
	if closed {
		return Report{}, ErrUnmounted
	}
	m.dead.Store(true)
	if err := unmount(m, f.mountpoint); err != nil {
		return Report{}, err
	}
	f.gate.Lock() // operations admitted before the crash finish first
	defer f.gate.Unlock()
	report, err := f.compare()
	if err != nil {
		return Report{}, err
	}
	if err := f.rebuild(); err != nil {
		return report, err
	}
	return report, f.serve()
}
