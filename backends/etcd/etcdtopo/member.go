package etcdtopo

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/lockbench/lockbench/backends/etcd/etcdtopo/memberfile"
	"github.com/lockbench/lockbench/topologies"
)

// member is one embedded etcd server with its own temp dir and two gates (client and
// peer) whose addresses it advertises.
type member struct {
	name    string
	dir     string // this member's own temp dir: data/ and etcd.log
	noFsync bool
	// compaction is the auto-compaction window (0: never compact).
	compaction time.Duration
	token      string // the cluster's initial token, unique per topology
	client     *gate
	peer       *gate
	cluster    *Cluster

	mu      sync.Mutex
	etcd    Server
	id      uint64 // raft member ID of the last start; a member re-added empty gets a new one
	paused  bool
	stopped bool // the topology is closed: never start again
}

func (m *member) Name() string          { return m.name }
func (m *member) Role() topologies.Role { return topologies.RoleMember }

// Addr is the member's client endpoint (its client gate), stable across restarts.
func (m *member) Addr() string         { return m.client.Addr() }
func (m *member) peerURL() string      { return "http://" + m.peer.Addr() }
func (m *member) clusterEntry() string { return m.name + "=" + m.peerURL() }
func (m *member) dataDir() string      { return filepath.Join(m.dir, "data") }
func (m *member) logPath() string      { return filepath.Join(m.dir, "etcd.log") }

func (m *member) Running() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.runningLocked()
}

// runningLocked: started and not stopped since (by us, or by a fatal error of its own).
func (m *member) runningLocked() bool {
	if m.etcd == nil {
		return false
	}
	select {
	case <-m.etcd.Stopped():
		return false
	default:
		return true
	}
}

func (m *member) currentID() uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.id
}

func (m *member) Paused() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.paused
}

func (m *member) server() Server {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.etcd
}

// config is the member's configuration: listening on ports the kernel picks (the gates
// hide them), advertising the gates' stable addresses.
func (m *member) config(state, initialCluster string) memberfile.Member {
	return memberfile.Member{
		Name: m.name, DataDir: m.dataDir(), LogPath: m.logPath(),
		ListenClient: "127.0.0.1:0", AdvertiseClient: m.client.Addr(),
		ListenPeer: "127.0.0.1:0", AdvertisePeer: m.peer.Addr(),
		InitialCluster: initialCluster, Token: m.token, State: state,
		NoFsync: m.noFsync, Compaction: m.compaction,
	}
}

// start launches the member and points its gates at the ports it got. It does not wait
// for the cluster: a member of a new cluster is ready only once a quorum runs.
func (m *member) start(state, initialCluster string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.stopped {
		return fmt.Errorf("%s: topology is closed", m.name)
	}
	if m.runningLocked() {
		return fmt.Errorf("%s: already running", m.name)
	}
	m.killLocked() // the remains of a server that stopped by itself
	if startServer == nil {
		return fmt.Errorf("%s: %w", m.name, errNoServer)
	}
	e, err := startServer(m.config(state, initialCluster))
	if err != nil {
		return fmt.Errorf("%s: start embedded etcd: %w", m.name, err)
	}
	m.etcd = e
	m.id = e.ID()
	m.client.setBackend(e.ClientAddr())
	m.peer.setBackend(e.PeerAddr())
	m.client.thaw()
	m.peer.thaw()
	m.paused = false
	return nil
}

// WaitReady waits until the member has joined its cluster and serves clients.
func (m *member) WaitReady(ctx context.Context) error {
	e := m.server()
	if e == nil {
		return fmt.Errorf("%s: not running", m.name)
	}
	select {
	case <-e.Ready():
		return nil
	case err := <-e.Err():
		return fmt.Errorf("%s: %v; log: %s", m.name, err, m.logTail())
	case <-ctx.Done():
		return fmt.Errorf("%s not ready: %w; log: %s", m.name, ctx.Err(), m.logTail())
	}
}

func (m *member) logTail() string {
	b, _ := os.ReadFile(m.logPath())
	if len(b) > 600 {
		b = b[len(b)-600:]
	}
	return strings.TrimSpace(string(b))
}

// Kill stops the member with no goodbye: the gates drop every connection at once, raft
// stops without handing over leadership, and only then the servers are closed.
func (m *member) Kill() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.runningLocked() {
		return fmt.Errorf("%s: not running", m.name)
	}
	m.killLocked()
	return nil
}

// killLocked stops whatever is left of the member (a server that died of an error too).
func (m *member) killLocked() {
	if m.etcd == nil {
		return
	}
	for _, g := range []*gate{m.client, m.peer} {
		g.setBackend("")
		g.cut()
		g.thaw() // forwarders held by a pause must run to see their closed connections
	}
	m.etcd.Kill()
	m.etcd = nil
	m.paused = false
}

// Pause freezes the member: its gates hold every byte to and from clients and peers, and
// its raft transport drops what it would send (outbound peer streams bypass its gates).
// Unlike SIGSTOP the member's own timers keep running: a paused leader's lessor can
// still decide leases expired, but cannot commit their revocation without a quorum.
func (m *member) Pause() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.runningLocked() {
		return fmt.Errorf("%s: not running", m.name)
	}
	m.client.freeze()
	m.peer.freeze()
	m.etcd.PauseSending()
	m.paused = true
	return nil
}

func (m *member) Resume() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.runningLocked() {
		return fmt.Errorf("%s: not running", m.name)
	}
	m.etcd.ResumeSending()
	m.client.thaw()
	m.peer.thaw()
	m.paused = false
	return nil
}

// seenLeader is the raft leader this member knows of (0: none).
func (m *member) seenLeader() (uint64, error) {
	e := m.server()
	if e == nil {
		return 0, fmt.Errorf("%s: not running", m.name)
	}
	return e.Leader(), nil
}

// halt stops the member before a restart and returns the raft ID it ran as.
func (m *member) halt() (uint64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.stopped {
		return 0, fmt.Errorf("%s: topology is closed", m.name)
	}
	m.killLocked()
	return m.id, nil
}

func (m *member) dirPath() string { return m.dir }

// Restart: see restartMember.
func (m *member) Restart(ctx context.Context, mode topologies.RestartMode) error {
	return restartMember(ctx, m.cluster, m, mode)
}

// close stops the member for good (gates included); safe on a member never started.
func (m *member) close() {
	m.mu.Lock()
	m.stopped = true
	m.killLocked()
	m.mu.Unlock()
	m.client.close()
	m.peer.close()
}
