// Package memberfile is the file an etcd member is started from and the one it answers
// with once it serves: the layout the etcd-process provider and the container rendering
// write and the member entry (etcdrun's RunMemberIfAsked) reads. It imports no etcd
// package, so the container rendering carries no etcd server.
package memberfile

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Env, set in a program's environment, names the member file it runs as one etcd
// member instead of its own main.
const Env = "LOCKBENCH_ETCD_MEMBER"

// Role is the helper role (internal/reexec) of a program that runs a member when Env asks.
const Role = "etcd member"

// DefaultCompaction is the auto-compaction window every provider's members get. Every
// Mutex attempt leaves a deleted waiter key behind, and every TryLock ranges over the
// lock's prefix, dead keys included, until a compaction drops them: without one, an
// attempt costs more the longer a run lasts (measured: p50 6.5 ms without, 3.4 ms with,
// unsafe-no-fsync, 8 clients on one key, 4 s). Kubernetes compacts every 5 minutes; a
// benchmark's steps last seconds, hence 1 s.
const DefaultCompaction = time.Second

// Member is everything one etcd member needs to start.
type Member struct {
	Name            string
	DataDir         string
	LogPath         string
	ListenClient    string // host:port to listen on; port 0 lets the kernel pick
	AdvertiseClient string // host:port clients are told
	ListenPeer      string
	AdvertisePeer   string
	InitialCluster  string
	Token           string
	State           string // "new" or "existing"
	NoFsync         bool
	// Compaction is the auto-compaction window (0: never compact).
	Compaction time.Duration
}

// File is what the starter writes to a member's dir before starting it.
type File struct {
	Member    Member
	ReadyPath string // written, with the member's raft ID, once it serves
	// ParentPid: the member exits when its parent is no longer this pid. 0 watches no
	// parent (the first process of a pid namespace has parent 0): whoever runs the
	// member must stop it.
	ParentPid int
}

// Write writes f at path.
func Write(path string, f File) error {
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// Read reads the file Write wrote.
func Read(path string) (File, error) {
	var f File
	b, err := os.ReadFile(path)
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return f, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// ready is what a member reports once it serves.
type ready struct {
	ID uint64
}

// WriteReady writes the ready file whole or not at all (the starter polls for it).
func WriteReady(path string, id uint64) error {
	b, err := json.Marshal(ready{ID: id})
	if err != nil {
		return err
	}
	tmp := filepath.Join(filepath.Dir(path), ".ready.tmp")
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// ReadyID is the raft ID in a member's ready file, an error until it is written.
func ReadyID(path string) (uint64, error) {
	var r ready
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return r.ID, json.Unmarshal(b, &r)
}
