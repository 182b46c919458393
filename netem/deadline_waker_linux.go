//go:build linux

package netem

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// deadlineWaker signals on fired when a timerfd expires. The runtime's netpoller
// watches the fd, so epoll returns the moment the kernel's high-resolution timer
// fires; a Go timer alone waits out epoll's timeout, which counts whole milliseconds
// and so wakes up to 1 ms late whenever the process is idle.
type deadlineWaker struct {
	fd    int
	file  *os.File // owns fd; Read parks on the netpoller, not on a thread
	fired chan struct{}
}

func newDeadlineWaker() (*deadlineWaker, error) {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return nil, os.NewSyscallError("timerfd_create", err)
	}
	w := &deadlineWaker{fd: fd, file: os.NewFile(uintptr(fd), "timerfd"), fired: make(chan struct{}, 1)}
	go w.watch()
	return w, nil
}

// watch turns each expiry into a signal; it ends when close closes the file.
func (w *deadlineWaker) watch() {
	var expirations [8]byte
	for {
		if _, err := w.file.Read(expirations[:]); err != nil {
			return
		}
		select {
		case w.fired <- struct{}{}:
		default: // one pending signal is enough: the waiter re-checks the clock
		}
	}
}

// arm makes the fd fire after d, replacing any earlier deadline.
func (w *deadlineWaker) arm(d time.Duration) error {
	d = max(d, time.Nanosecond) // a zero value would disarm it instead
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(int64(d))}
	return os.NewSyscallError("timerfd_settime", unix.TimerfdSettime(w.fd, 0, &spec, nil))
}

func (w *deadlineWaker) close() { w.file.Close() }
