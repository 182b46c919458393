package pgtopo

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/lockbench/lockbench/topologies/supervise"
)

// dirPrefix names this provider's temp dirs (topologies.NewTempDir("postgres")).
const dirPrefix = "lockbench-postgres-"

// removeLeftSegment frees the System V shared memory segment a killed server left
// behind (a restart would reuse or free it; a Close must). postmaster.pid names it on
// its seventh line; it is freed only if it is still that server's and unattached.
func removeLeftSegment(dataDir string) {
	b, err := os.ReadFile(filepath.Join(dataDir, "postmaster.pid"))
	if err != nil {
		return
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) < 7 {
		return
	}
	f := strings.Fields(lines[6])
	if len(f) != 2 {
		return
	}
	key, errK := strconv.ParseInt(f[0], 10, 64)
	id, errI := strconv.Atoi(f[1])
	if errK != nil || errI != nil {
		return
	}
	var desc unix.SysvShmDesc
	if _, err := unix.SysvShmCtl(id, unix.IPC_STAT, &desc); err != nil {
		return
	}
	if int64(uint32(desc.Perm.Key)) == key && desc.Nattch == 0 {
		_, _ = unix.SysvShmCtl(id, unix.IPC_RMID, nil)
	}
}

// killOrphanedServers cleans up after programs that died without closing their
// topology (SIGKILL leaves no chance to). The postmaster dies with its owner through
// Pdeathsig and running backends follow it, but backends a Pause stopped stay stopped,
// and the shared memory segment stays until someone frees it. Dirs still there are
// cleaned whole (the generic sweep removes them after); processes whose dir another
// sweep already removed are found by their working directory.
func killOrphanedServers() {
	tmp := os.TempDir()
	if real, err := filepath.EvalSymlinks(tmp); err == nil {
		tmp = real
	}
	prefix := filepath.Join(tmp, dirPrefix)
	dirs, _ := filepath.Glob(prefix + "*")
	for _, dir := range dirs {
		if !ownerAlive(dir) {
			supervise.KillWorkingIn(filepath.Join(dir, "data"))
			removeLeftSegment(filepath.Join(dir, "data"))
		}
	}
	for _, pid := range supervise.Pids() {
		cwd, deleted := supervise.WorkingDir(pid)
		if !strings.HasPrefix(cwd, prefix) {
			continue
		}
		top := cwd
		if i := strings.IndexByte(cwd[len(prefix):], '/'); i >= 0 {
			top = cwd[:len(prefix)+i]
		}
		if deleted || !ownerAlive(top) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// ownerAlive reports whether the program that made topology dir top still runs.
func ownerAlive(top string) bool {
	b, err := os.ReadFile(filepath.Join(top, "owner.pid"))
	if err != nil {
		return false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		return true // not a file we know how to read: leave it alone
	}
	return !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
