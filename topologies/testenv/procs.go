package testenv

import (
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// CloseTwice closes c and closes it again: the second Close must be a no-op that
// succeeds.
func CloseTwice(tb testing.TB, c io.Closer) {
	tb.Helper()
	if err := c.Close(); err != nil {
		tb.Fatal(err)
	}
	if err := c.Close(); err != nil {
		tb.Errorf("second Close: %v", err)
	}
}

// NoneLeft fails for each pid (what names them) that still has a process; 0 stands
// for a member with none of its own and is passed over.
func NoneLeft(tb testing.TB, pids []int, what string) {
	tb.Helper()
	for _, pid := range pids {
		if pid > 0 && !Exited(pid) {
			tb.Errorf("%s %d still exists after Close", what, pid)
		}
	}
}

// ProcState is pid's state letter in /proc (R, S, T for stopped, Z for a zombie...);
// "" when /proc has no such process.
func ProcState(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	// The state follows the last ')': a command name may hold spaces and parentheses.
	s := string(b)
	if f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]); len(f) > 0 {
		return f[0]
	}
	return ""
}

// ExitedOrZombie says pid has exited, a zombie counted: one whose parent is gone waits
// for its new parent only.
func ExitedOrZombie(pid int) bool {
	if Exited(pid) {
		return true
	}
	st := ProcState(pid)
	return st == "" || st == "Z"
}

// RefusesConnections says nothing accepts a TCP connection on addr within a second.
func RefusesConnections(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return true
	}
	c.Close()
	return false
}
