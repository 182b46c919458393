package topologies

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// reaper remembers every live server process group and temp dir, so that SIGINT or
// SIGTERM to this program still stops them. Pdeathsig covers the paths a handler cannot
// (SIGKILL of this program); the reaper also removes the temp dirs.
var reaper = struct {
	sync.Mutex
	groups    map[int]struct{}
	dirs      map[string]struct{}
	cleanups  map[int]func() // by OnReap id
	nextID    int
	installed bool
	enabled   bool
}{groups: map[int]struct{}{}, dirs: map[string]struct{}{}, cleanups: map[int]func(){}, enabled: true}

// HandleSignals turns the reaper's SIGINT/SIGTERM handler on or off. Programs that
// cancel their own work on a signal and then Close their topologies turn it off.
func HandleSignals(on bool) {
	reaper.Lock()
	defer reaper.Unlock()
	reaper.enabled = on
}

func trackGroup(pgid int) {
	reaper.Lock()
	defer reaper.Unlock()
	reaper.groups[pgid] = struct{}{}
	installReaperLocked()
}

func untrackGroup(pgid int) {
	reaper.Lock()
	defer reaper.Unlock()
	delete(reaper.groups, pgid)
}

func trackDir(dir string) {
	reaper.Lock()
	defer reaper.Unlock()
	reaper.dirs[dir] = struct{}{}
	installReaperLocked()
}

func untrackDir(dir string) {
	reaper.Lock()
	defer reaper.Unlock()
	delete(reaper.dirs, dir)
}

func installReaperLocked() {
	if reaper.installed {
		return
	}
	reaper.installed = true
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		for sig := range signals {
			reaper.Lock()
			if !reaper.enabled {
				reaper.Unlock()
				continue
			}
			reapLocked()
			reaper.Unlock()
			// Die of the same signal, as the default handler would have.
			signal.Reset(sig)
			_ = syscall.Kill(os.Getpid(), sig.(syscall.Signal))
		}
	}()
}

// ReapAll kills every tracked process group and removes every tracked dir.
func ReapAll() {
	reaper.Lock()
	defer reaper.Unlock()
	reapLocked()
}

func reapLocked() {
	for pgid := range reaper.groups {
		_ = syscall.Kill(-pgid, syscall.SIGCONT) // a stopped process must run to die cleanly
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		delete(reaper.groups, pgid)
	}
	for id, cleanup := range reaper.cleanups {
		cleanup()
		delete(reaper.cleanups, id)
	}
	for dir := range reaper.dirs {
		_ = os.RemoveAll(dir)
		delete(reaper.dirs, dir)
	}
}
