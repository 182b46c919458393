// Package portlease hands out loopback ports that no other lockbench process, and no
// outgoing connection, can take between the pick and the server's bind.
//
// Asking the kernel for port 0 and closing the listener is racy twice over: the port
// comes from the ephemeral range, which every outgoing connection on the machine draws
// its source port from, and another test process may be handed the same port a moment
// later. A lease instead picks from the band just below the ephemeral range (the kernel
// never hands those out on its own) and holds an advisory lock on a file named for the
// port, which every lockbench process on the machine honours, until Release or exit.
package portlease

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
)

// bandWidth is how many ports below the ephemeral range leases draw from.
const bandWidth = 12000

var (
	mu   sync.Mutex
	held = map[int]*os.File{} // port -> its locked file, for this process

	// afterTake, when set (tests only, through OnTake), runs on each newly leased port
	// before Take returns: a test binds it there to play the program that steals it.
	afterTake func(port int)
)

// Take leases a free loopback port to this process until Release(port) or exit.
func Take() (int, error) {
	lo, hi := band()
	dir, err := lockDir()
	if err != nil {
		return 0, err
	}
	mu.Lock()
	defer mu.Unlock()
	span := hi - lo
	start := rand.IntN(span) // processes start apart, so they rarely contend for one file
	for i := 0; i < span; i++ {
		port := lo + (start+i)%span
		if _, mine := held[port]; mine {
			continue
		}
		f, ok := lockPort(dir, port)
		if !ok {
			continue
		}
		if !bindable(port) {
			f.Close() // closing drops the lock
			continue
		}
		held[port] = f
		if afterTake != nil {
			afterTake(port)
		}
		return port, nil
	}
	return 0, fmt.Errorf("portlease: every port in %d-%d is leased or bound", lo, hi-1)
}

// Release ends this process's lease on port; releasing a port not leased is a no-op.
func Release(port int) {
	mu.Lock()
	defer mu.Unlock()
	if f, ok := held[port]; ok {
		f.Close()
		delete(held, port)
	}
}

// Held reports whether this process holds a lease on port.
func Held(port int) bool {
	mu.Lock()
	defer mu.Unlock()
	_, ok := held[port]
	return ok
}

// OnTake has f run on every port leased from now on, until restore; for tests that
// take a leased port away on purpose.
func OnTake(f func(port int)) (restore func()) {
	mu.Lock()
	defer mu.Unlock()
	prev := afterTake
	afterTake = f
	return func() {
		mu.Lock()
		defer mu.Unlock()
		afterTake = prev
	}
}

// lockPort takes the machine-wide advisory lock for port without waiting.
func lockPort(dir string, port int) (*os.File, bool) {
	f, err := os.OpenFile(filepath.Join(dir, strconv.Itoa(port)), os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, false
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, false
	}
	return f, true
}

// bindable reports whether nothing listens on port now (a program outside lockbench
// that holds it makes the bind fail).
func bindable(port int) bool {
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return false
	}
	l.Close()
	return true
}

// lockDir is the folder of lock files every lockbench process on the machine shares.
func lockDir() (string, error) {
	dir := filepath.Join(os.TempDir(), "lockbench-ports")
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return "", fmt.Errorf("portlease: %w", err)
	}
	// Users other than the first one to make it must be able to add their lock files.
	if err := os.Chmod(dir, 0o777|os.ModeSticky); err != nil && !errors.Is(err, os.ErrPermission) {
		return "", fmt.Errorf("portlease: %w", err)
	}
	return dir, nil
}

// band is [lo, hi): the ports just below the kernel's ephemeral range, or just above it
// where the range starts too low to leave a band below.
func band() (lo, hi int) {
	first, last := ephemeralRange()
	lo, hi = max(first-bandWidth, 10000), first // 10000: clear of well-known services
	if hi-lo < 1000 && last < 64000 {
		lo, hi = last+1, min(last+1+bandWidth, 65536)
	}
	return lo, hi
}

// ephemeralRange is the kernel's range for ports it hands out on its own (Linux's
// default when unreadable).
func ephemeralRange() (first, last int) {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err == nil {
		if _, err := fmt.Sscan(string(b), &first, &last); err == nil && first > 0 && last >= first {
			return first, last
		}
	}
	return 32768, 60999
}
