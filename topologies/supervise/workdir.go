package supervise

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// deletedSuffix is what the kernel appends to a working directory that was removed.
const deletedSuffix = " (deleted)"

// WorkingDir is the working directory of pid, without a deleted marker; "" if
// unreadable (gone, a zombie, or not ours to read).
func WorkingDir(pid int) (dir string, deleted bool) {
	link, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "cwd"))
	if err != nil {
		return "", false
	}
	if strings.HasSuffix(link, deletedSuffix) {
		return strings.TrimSuffix(link, deletedSuffix), true
	}
	return link, false
}

// Pids lists the pids in /proc.
func Pids() []int {
	entries, _ := os.ReadDir("/proc")
	pids := make([]int, 0, len(entries))
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// WorkingIn lists the live processes working in dir: a server whose children leave its
// process group (PostgreSQL's call setsid) is found by the directory they all chdir to.
func WorkingIn(dir string) []int {
	var out []int
	for _, pid := range Pids() {
		if cwd, _ := WorkingDir(pid); cwd == dir {
			out = append(out, pid)
		}
	}
	return out
}

// KillWorkingIn SIGKILLs every process working in dir until none is left (bounded, so
// a process that cannot be killed never hangs a close).
func KillWorkingIn(dir string) {
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		procs := WorkingIn(dir)
		if len(procs) == 0 {
			return
		}
		for _, p := range procs {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
