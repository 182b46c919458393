package topologies

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// tempDirPrefix names every topology dir, so that orphans can be found.
const tempDirPrefix = "lockbench-"

// ownerFile holds the pid of the program that made a topology dir.
const ownerFile = "owner.pid"

func writeOwner(dir string) error {
	return os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o644)
}

// sweepOrphanedDirs removes topology dirs whose owner died without cleaning up (a
// SIGKILL leaves no chance to); their servers died with it through Pdeathsig.
func sweepOrphanedDirs() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), tempDirPrefix+"*"))
	for _, dir := range dirs {
		b, err := os.ReadFile(filepath.Join(dir, ownerFile))
		if err != nil {
			continue // not ours, or still being made
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 0 {
			continue
		}
		if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
			_ = os.RemoveAll(dir)
		}
	}
}
