package etcdtopo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/lockbench/lockbench/topologies"
)

// errPortTaken says a member could not bind one of its ports: another program has it.
var errPortTaken = errors.New("port already in use")

// processMember is one etcd member in a child process of its own (this executable run
// again with memberEnv set), in its own process group, listening on fixed ports that
// it keeps across restarts. Kill is SIGKILL, Pause SIGSTOP, Resume SIGCONT: the same
// handles as redis-server and ZooKeeper get.
type processMember struct {
	name       string
	dir        string // this member's own temp dir: member.json, ready.json, logs, data/
	exe        string // the executable that runs a member when memberEnv is set
	clientPort int
	peerPort   int
	noFsync    bool
	compaction time.Duration
	token      string
	cluster    *Cluster

	mu       sync.Mutex
	proc     topologies.GroupProcess // the child running the member
	id       uint64                  // raft member ID the child reported when ready
	startLog topologies.StartLog     // what the child wrote since its last start
	paused   bool
	stopped  bool             // the topology is closed: never start again
	admin    *clientv3.Client // asks this member for its view of the leader
}

// newProcessMember makes the member's temp dir and picks its two ports.
func newProcessMember(c *Cluster, exe, name, token string) (clusterMember, error) {
	client, err := topologies.FreePort()
	if err != nil {
		return nil, err
	}
	peer, err := topologies.FreePort()
	if err != nil {
		topologies.ReleasePort(client)
		return nil, err
	}
	dir, err := topologies.NewTempDir("etcd-" + name)
	if err != nil {
		topologies.ReleasePort(client)
		topologies.ReleasePort(peer)
		return nil, err
	}
	return &processMember{name: name, dir: dir, exe: exe, clientPort: client, peerPort: peer,
		noFsync: c.spec.UnsafeNoFsync, compaction: c.compaction, token: token, cluster: c}, nil
}

func (m *processMember) Name() string          { return m.name }
func (m *processMember) Role() topologies.Role { return topologies.RoleMember }
func (m *processMember) Addr() string {
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(m.clientPort))
}
func (m *processMember) peerAddr() string {
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(m.peerPort))
}
func (m *processMember) peerURL() string      { return "http://" + m.peerAddr() }
func (m *processMember) clusterEntry() string { return m.name + "=" + m.peerURL() }
func (m *processMember) dirPath() string      { return m.dir }
func (m *processMember) dataDir() string      { return filepath.Join(m.dir, "data") }
func (m *processMember) logPath() string      { return filepath.Join(m.dir, "etcd.log") }
func (m *processMember) outPath() string      { return filepath.Join(m.dir, "member.out") }
func (m *processMember) configPath() string   { return filepath.Join(m.dir, "member.json") }
func (m *processMember) readyPath() string    { return filepath.Join(m.dir, "ready.json") }

func (m *processMember) Running() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.runningLocked()
}

func (m *processMember) runningLocked() bool { return m.proc.Running() }

// Pid is the member's process id while it runs, else 0.
func (m *processMember) Pid() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.proc.Pid()
}

func (m *processMember) currentID() uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.id
}

func (m *processMember) isPaused() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.paused
}

// start writes the member's config and launches its process. It does not wait: a
// member of a new cluster is ready only once a quorum runs.
func (m *processMember) start(state, initialCluster string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.stopped {
		return fmt.Errorf("%s: topology is closed", m.name)
	}
	if m.runningLocked() {
		return fmt.Errorf("%s: already running", m.name)
	}
	cfg := childConfig{
		Member: memberConfig{
			Name: m.name, DataDir: m.dataDir(), LogPath: m.logPath(),
			ListenClient: m.Addr(), AdvertiseClient: m.Addr(),
			ListenPeer: m.peerAddr(), AdvertisePeer: m.peerAddr(),
			InitialCluster: initialCluster, Token: m.token, State: state,
			NoFsync: m.noFsync, Compaction: m.compaction,
		},
		ReadyPath: m.readyPath(),
		ParentPid: os.Getpid(),
	}
	b, err := json.Marshal(cfg)
	if err != nil {
		return err
	}
	if err := os.WriteFile(m.configPath(), b, 0o644); err != nil {
		return err
	}
	if err := os.Remove(m.readyPath()); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	out, err := os.OpenFile(m.outPath(), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	m.startLog = topologies.MarkStartLog(m.outPath(), m.logPath())
	cmd := exec.Command(m.exe)
	cmd.Args = []string{"lockbench-etcd-" + m.name} // what ps shows
	cmd.Dir = m.dir
	cmd.Env = append(os.Environ(), memberEnv+"="+m.configPath())
	cmd.Stdout, cmd.Stderr = out, out
	proc, err := topologies.StartGroupProcess(cmd)
	out.Close() // the child has its own copy
	if err != nil {
		return fmt.Errorf("%s: start %s: %w", m.name, m.exe, err)
	}
	m.proc, m.paused, m.id = proc, false, 0
	return nil
}

// waitReady polls for the ready file the child writes once etcd's ReadyNotify fired (the
// embedded provider's check), until the child exits or ctx ends.
func (m *processMember) waitReady(ctx context.Context) error {
	m.mu.Lock()
	exited := m.proc.Exited()
	m.mu.Unlock()
	if exited == nil {
		return fmt.Errorf("%s: not started", m.name)
	}
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		if r, err := readReady(m.readyPath()); err == nil {
			m.mu.Lock()
			m.id = r.ID
			m.mu.Unlock()
			return nil
		}
		select {
		case <-exited:
			m.mu.Lock()
			startLog := m.startLog
			m.mu.Unlock()
			tail := startLog.Tail(800)
			if startLog.PortTaken() {
				return fmt.Errorf("%s on %s: %w; log: %s", m.name, m.Addr(), errPortTaken, tail)
			}
			return fmt.Errorf("%s on %s exited before ready; log: %s", m.name, m.Addr(), tail)
		case <-ctx.Done():
			return fmt.Errorf("%s not ready: %w; log: %s", m.name, ctx.Err(), m.logTail())
		case <-tick.C:
		}
	}
}

// logTail is the end of the child's own output and of etcd's log, for errors.
func (m *processMember) logTail() []byte {
	var b []byte
	for _, p := range []string{m.outPath(), m.logPath()} {
		if part, err := os.ReadFile(p); err == nil {
			b = append(b, part...)
		}
	}
	if len(b) > 800 {
		b = b[len(b)-800:]
	}
	return bytes.TrimSpace(b)
}

// Kill SIGKILLs the member's process group: no goodbye, no leadership transfer.
func (m *processMember) Kill() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.runningLocked() {
		return fmt.Errorf("%s: not running", m.name)
	}
	m.killLocked()
	return nil
}

// killLocked SIGKILLs the group and waits until the child is reaped.
func (m *processMember) killLocked() {
	m.proc.Kill()
	m.paused = false
	if m.admin != nil { // a fresh client after a restart: no redial backoff to wait out
		m.admin.Close()
		m.admin = nil
	}
}

// Pause SIGSTOPs the member: its sockets stay open, it answers nothing, its timers stop.
func (m *processMember) Pause() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.runningLocked() {
		return fmt.Errorf("%s: not running", m.name)
	}
	if err := m.proc.Stop(); err != nil {
		return fmt.Errorf("%s: %w", m.name, err)
	}
	m.paused = true
	return nil
}

func (m *processMember) Resume() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.runningLocked() {
		return fmt.Errorf("%s: not running", m.name)
	}
	if err := m.proc.Continue(); err != nil {
		return fmt.Errorf("%s: %w", m.name, err)
	}
	m.paused = false
	return nil
}

func (m *processMember) halt() (uint64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.stopped {
		return 0, fmt.Errorf("%s: topology is closed", m.name)
	}
	m.killLocked()
	return m.id, nil
}

// Restart: see restartMember.
func (m *processMember) Restart(ctx context.Context, mode topologies.RestartMode) error {
	return restartMember(ctx, m.cluster, m, mode)
}

// seenLeader asks the member itself (a Status call) which leader it knows of.
func (m *processMember) seenLeader() (uint64, error) {
	cli, err := m.adminClient()
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	st, err := cli.Status(ctx, m.Addr())
	if err != nil {
		return 0, fmt.Errorf("%s: status: %w", m.name, err)
	}
	return st.Leader, nil
}

func (m *processMember) adminClient() (*clientv3.Client, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.stopped {
		return nil, fmt.Errorf("%s: topology is closed", m.name)
	}
	if m.admin == nil {
		cli, err := clientv3.New(clientv3.Config{Endpoints: []string{m.Addr()}, Logger: zap.NewNop()})
		if err != nil {
			return nil, err
		}
		m.admin = cli
	}
	return m.admin, nil
}

// close stops the member for good; safe on a member never started.
func (m *processMember) close() {
	m.mu.Lock()
	m.stopped = true
	m.killLocked()
	topologies.ReleasePort(m.clientPort)
	topologies.ReleasePort(m.peerPort)
	if m.admin != nil { // never started: nothing killed, but a Leader call may have made one
		m.admin.Close()
		m.admin = nil
	}
	m.mu.Unlock()
}
