package etcdtopo

import (
	"context"
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

	"github.com/lockbench/lockbench/backends/etcd/etcdtopo/memberfile"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/forgetful"
	"github.com/lockbench/lockbench/topologies/supervise"
)

// processMember is one etcd member in a child process of its own (this executable run
// again with memberfile.Env set), supervised, listening on fixed ports that it keeps across
// restarts. Kill is SIGKILL, Pause SIGSTOP, Resume SIGCONT: the same handles as
// redis-server and ZooKeeper get.
type processMember struct {
	*supervise.Node
	name       string
	dir        string // this member's own temp dir: member.json, ready.json, logs, data/
	exe        string // the executable that runs a member when memberfile.Env is set
	clientPort int
	peerPort   int
	noFsync    bool
	compaction time.Duration
	token      string
	cluster    *Cluster

	mu      sync.Mutex
	state   string           // the next start's initial-cluster-state: new or existing
	initial string           // the next start's initial cluster
	id      uint64           // raft member ID the child reported when ready
	closed  bool             // the topology is closed: make no admin client
	admin   *clientv3.Client // asks this member for its view of the leader
	disk    *forgetful.Disk  // its data dir when it forgets what was not fsynced; nil: an ordinary one
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
	m := &processMember{name: name, dir: dir, exe: exe, clientPort: client, peerPort: peer,
		noFsync: c.spec.UnsafeNoFsync, compaction: c.compaction, token: token, cluster: c}
	if c.spec.ForgetfulDisk {
		if m.disk, err = forgetful.Mount(dir); err != nil {
			topologies.ReleasePort(client)
			topologies.ReleasePort(peer)
			return nil, errors.Join(fmt.Errorf("%s: %w", name, err), topologies.RemoveTempDir(dir))
		}
	}
	m.Node = supervise.New(supervise.Config{
		Name:    name,
		Addr:    m.Addr,
		Command: m.command,
		Output:  m.outPath(),
		Logs:    []string{m.logPath()},
		// Ready: the child wrote its ready file once etcd's ReadyNotify fired (the
		// embedded provider's check).
		Ready: func(context.Context) error {
			id, err := memberfile.ReadyID(m.readyPath())
			if err == nil {
				m.mu.Lock()
				m.id = id
				m.mu.Unlock()
			}
			return err
		},
		Killed: m.dropAdmin, // a fresh client after a restart: no redial backoff to wait out
	})
	return m, nil
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
func (m *processMember) dataDir() string      { return forgetful.DataDir(m.dir) }
func (m *processMember) logPath() string      { return filepath.Join(m.dir, "etcd.log") }
func (m *processMember) outPath() string      { return filepath.Join(m.dir, "member.out") }
func (m *processMember) configPath() string   { return filepath.Join(m.dir, "member.json") }
func (m *processMember) readyPath() string    { return filepath.Join(m.dir, "ready.json") }

func (m *processMember) currentID() uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.id
}

// start launches the member with this state and initial cluster. It does not wait: a
// member of a new cluster is ready only once a quorum runs.
func (m *processMember) start(state, initialCluster string) error {
	m.mu.Lock()
	m.state, m.initial, m.id = state, initialCluster, 0
	m.mu.Unlock()
	return m.Launch()
}

// command writes the member's config for the next start and makes its command.
func (m *processMember) command() (*exec.Cmd, error) {
	m.mu.Lock()
	state, initialCluster := m.state, m.initial
	m.mu.Unlock()
	cfg := memberfile.File{
		Member: memberfile.Member{
			Name: m.name, DataDir: m.dataDir(), LogPath: m.logPath(),
			ListenClient: m.Addr(), AdvertiseClient: m.Addr(),
			ListenPeer: m.peerAddr(), AdvertisePeer: m.peerAddr(),
			InitialCluster: initialCluster, Token: m.token, State: state,
			NoFsync: m.noFsync, Compaction: m.compaction,
		},
		ReadyPath: m.readyPath(),
		ParentPid: os.Getpid(),
	}
	if err := memberfile.Write(m.configPath(), cfg); err != nil {
		return nil, err
	}
	if err := os.Remove(m.readyPath()); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	cmd := exec.Command(m.exe)
	cmd.Args = []string{"lockbench-etcd-" + m.name} // what ps shows
	cmd.Dir = m.dir
	cmd.Env = append(os.Environ(), memberfile.Env+"="+m.configPath())
	return cmd, nil
}

// halt kills the member before a restart and returns the raft ID it ran as.
func (m *processMember) halt() (uint64, error) {
	if err := m.Halt(); err != nil {
		return 0, err
	}
	return m.currentID(), nil
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
	if m.closed {
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

// dropAdmin closes the admin client, if one was made.
func (m *processMember) dropAdmin() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.admin != nil {
		m.admin.Close()
		m.admin = nil
	}
}

// forgetfulDisk is the member's disk when it forgets what was not fsynced, else nil.
func (m *processMember) forgetfulDisk() *forgetful.Disk { return m.disk }

// settleDisk makes durable every name on a forgetful disk (see settle).
func (m *processMember) settleDisk() error { return m.disk.SettleEntries() }

// WriteBack makes all the member wrote durable on its forgetful disk; none on an ordinary one.
func (m *processMember) WriteBack() error { return m.disk.WriteBack() }

// LastHostCrash is what the last host crash dropped; false before the first, or on a
// member with an ordinary disk.
func (m *processMember) LastHostCrash() (topologies.HostCrash, bool) {
	if m.disk == nil {
		return topologies.HostCrash{}, false
	}
	return m.disk.Last()
}

// close stops the member for good; safe on a member never started.
func (m *processMember) close() {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	m.Close()
	_ = m.disk.Unmount()
	m.dropAdmin() // never started: nothing killed, but a Leader call may have made one
	topologies.ReleasePort(m.clientPort)
	topologies.ReleasePort(m.peerPort)
}
