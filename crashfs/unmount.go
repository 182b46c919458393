package crashfs

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// unmount ends m at mountpoint. A mount still held by some process (an open file, a
// working directory) is detached lazily and its connection aborted where the kernel
// lets us, so that the holder sees errors rather than a file system that goes on.
func unmount(m *mount, mountpoint string) error {
	conn, connErr := connectionOf(mountpoint)
	err := m.server.Unmount()
	if err == nil {
		return nil
	}
	if lazyErr := detach(mountpoint); lazyErr != nil {
		return fmt.Errorf("crashfs: unmount %s: %w; lazy unmount: %w", mountpoint, err, lazyErr)
	}
	if connErr == nil {
		abort(conn)
	}
	return nil
}

// detach unmounts mountpoint lazily: itself as root, else through fusermount.
func detach(mountpoint string) error {
	err := syscall.Unmount(mountpoint, syscall.MNT_DETACH)
	if err == nil {
		return nil
	}
	for _, bin := range []string{"fusermount3", "fusermount"} {
		out, runErr := exec.Command(bin, "-uz", mountpoint).CombinedOutput()
		if runErr == nil {
			return nil
		}
		err = errors.Join(err, fmt.Errorf("%s -uz: %w: %s", bin, runErr, out))
	}
	return err
}

// connectionOf is the number of the FUSE connection that serves mountpoint.
func connectionOf(mountpoint string) (uint32, error) {
	var st unix.Stat_t
	if err := unix.Stat(mountpoint, &st); err != nil {
		return 0, err
	}
	return unix.Minor(st.Dev), nil
}

// abort cuts FUSE connection conn (when the fusectl file system is mounted): every
// request still pending or to come fails, as on a host that died.
func abort(conn uint32) {
	// Best effort: without fusectl the lazily detached mount stays until its holder lets go.
	_ = os.WriteFile(fmt.Sprintf("/sys/fs/fuse/connections/%d/abort", conn), []byte("1"), 0)
}
