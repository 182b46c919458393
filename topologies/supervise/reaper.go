package supervise

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

// TrackGroup has the reaper kill process group pgid on SIGINT/SIGTERM:
// every child a Node starts, and server processes that leave their parent's group
// (PostgreSQL's backends call setsid) and would otherwise outlive a paused server.
func TrackGroup(pgid int) { track(reaper.groups, pgid) }

// UntrackGroup undoes TrackGroup.
func UntrackGroup(pgid int) { untrack(reaper.groups, pgid) }

// TrackDir has the reaper remove dir on SIGINT/SIGTERM.
func TrackDir(dir string) { track(reaper.dirs, dir) }

// UntrackDir undoes TrackDir.
func UntrackDir(dir string) { untrack(reaper.dirs, dir) }

// track adds key to one of the reaper's sets, and makes sure the handler runs.
func track[K comparable](set map[K]struct{}, key K) {
	reaper.Lock()
	defer reaper.Unlock()
	set[key] = struct{}{}
	installReaperLocked()
}

func untrack[K comparable](set map[K]struct{}, key K) {
	reaper.Lock()
	defer reaper.Unlock()
	delete(set, key)
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

// reapLocked kills every tracked process group and removes every tracked dir.
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

// OnReap has the reaper run cleanup after it has killed every tracked group and before
// it removes the tracked dirs (PostgreSQL leaves a System V shared memory segment that
// only its data dir names). cleanup runs with the reaper locked: it must not call into
// this package. forget unregisters it.
func OnReap(cleanup func()) (forget func()) {
	reaper.Lock()
	defer reaper.Unlock()
	id := reaper.nextID
	reaper.nextID++
	reaper.cleanups[id] = cleanup
	installReaperLocked()
	return func() {
		reaper.Lock()
		defer reaper.Unlock()
		delete(reaper.cleanups, id)
	}
}
