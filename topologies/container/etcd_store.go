package container

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/etcdtopo/membership"
)

// etcdCluster is an etcd cluster whose members are this program, re-executed in a
// container each (etcdtopo's member entry), with etcdtopo.Cluster's methods.
type etcdCluster struct {
	*topology
	token string
	idMu  sync.Mutex
	ids   map[*node]uint64 // raft ID each member reported when ready
}

func (c *etcdCluster) Endpoints() []string { return topologies.Addrs(c.Nodes()) }

func (c *etcdCluster) id(n *node) uint64 {
	c.idMu.Lock()
	defer c.idMu.Unlock()
	return c.ids[n]
}

func peerURL(n *node) string { return "http://127.0.0.1:" + strconv.Itoa(n.peerPorts[0]) }

func (c *etcdCluster) initialCluster() string {
	var es []string
	for _, m := range c.masters {
		es = append(es, m.name+"="+peerURL(m))
	}
	return strings.Join(es, ",")
}

// startEtcd starts every member's container together and returns once each reports
// ready (ReadyNotify, the process provider's check).
func (t *topology) startEtcd(ctx context.Context) (topologies.Topology, error) {
	// A member is this program re-executed: only etcdtopo's init turns it into one.
	if _, err := topologies.ProviderNamed("etcd-process"); err != nil {
		return nil, fmt.Errorf("this program does not link topologies/etcdtopo, whose member entry every container runs (import it): %w", err)
	}
	image, mounts, err := onceImage("etcd", func() (string, []string, error) {
		tag, exe, err := etcdImage(ctx, t.cli)
		return tag, []string{exe}, err
	})
	if err != nil {
		return nil, err
	}
	exe := mounts[0]
	c := &etcdCluster{topology: t, token: fmt.Sprintf("lockbench-%d", time.Now().UnixNano()), ids: map[*node]uint64{}}
	ports, err := t.distinctPorts(2 * t.spec.Members)
	if err != nil {
		return nil, err
	}
	for i := 0; i < t.spec.Members; i++ {
		n := t.newNode(fmt.Sprintf("member-%d", i), topologies.RoleMember)
		n.port, n.peerPorts = ports[2*i], []int{ports[2*i+1]}
		n.svc = &service{
			image:    image,
			command:  func(*node) []string { return []string{exe} },
			env:      map[string]string{etcdMemberEnv: filepath.Join(n.dir, "member.json")},
			user:     fmt.Sprintf("%d:%d", os.Getuid(), os.Getgid()),
			readOnly: []string{exe},
			ready:    c.ready,
			prepare:  c.prepare,
			forget:   func(n *node) error { return os.RemoveAll(filepath.Join(n.dir, "data")) },
		}
		t.masters = append(t.masters, n)
	}
	if err := t.createNetwork(ctx); err != nil {
		return nil, err
	}
	if err := t.startServices(ctx, t.masters); err != nil {
		return nil, err
	}
	return c, nil
}

// prepare writes the member file: a new cluster at the first start, the existing one
// after; a member restarted empty in a larger cluster is first removed and added back
// through the others, as etcdtopo does (a lone one starts a new cluster).
func (c *etcdCluster) prepare(ctx context.Context, n *node, mode topologies.RestartMode, first bool) error {
	if err := os.MkdirAll(n.dir, 0o755); err != nil {
		return err
	}
	state := "existing"
	if first || (mode == topologies.RestartEmpty && len(c.masters) == 1) {
		state = "new"
	} else if mode == topologies.RestartEmpty {
		if err := c.replace(ctx, n); err != nil {
			return fmt.Errorf("%s: re-add with an empty disk: %w", n.name, err)
		}
	}
	ready := filepath.Join(n.dir, "ready.json")
	if err := os.Remove(ready); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	var m etcdMember
	m.Member.Name, m.Member.DataDir, m.Member.LogPath = n.name, filepath.Join(n.dir, "data"), filepath.Join(n.dir, "etcd.log")
	m.Member.ListenClient, m.Member.AdvertiseClient = "0.0.0.0:"+strconv.Itoa(n.port), n.Addr()
	m.Member.ListenPeer, m.Member.AdvertisePeer = "0.0.0.0:"+strconv.Itoa(n.peerPorts[0]), strings.TrimPrefix(peerURL(n), "http://")
	m.Member.InitialCluster, m.Member.Token, m.Member.State = c.initialCluster(), c.token, state
	m.Member.NoFsync, m.Member.Compaction = c.spec.UnsafeNoFsync, etcdCompaction
	m.ReadyPath = ready
	return writeEtcdMember(filepath.Join(n.dir, "member.json"), m)
}

// ready waits for the ready file the member writes once etcd's ReadyNotify fired.
func (c *etcdCluster) ready(ctx context.Context, n *node) error {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	for {
		if id, err := readyEtcdID(filepath.Join(n.dir, "ready.json")); err == nil {
			c.idMu.Lock()
			c.ids[n] = id
			c.idMu.Unlock()
			return nil
		}
		if !alive(n.topo.pidOf(n)) {
			return fmt.Errorf("%s exited before ready; log: %s %s", n.name, containerLog(n), fileTail(filepath.Join(n.dir, "etcd.log")))
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s not ready: %w; log: %s", n.name, ctx.Err(), fileTail(filepath.Join(n.dir, "etcd.log")))
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// replace removes n's old raft identity and adds its peer address back, through the
// members still running.
func (c *etcdCluster) replace(ctx context.Context, n *node) error {
	var others []string
	for _, o := range c.masters {
		if o != n && o.Running() {
			others = append(others, o.Addr())
		}
	}
	return membership.Replace(ctx, others, c.id(n), peerURL(n))
}

// Leader is the member the running, unpaused members agree leads (etcdtopo's rule).
func (c *etcdCluster) Leader() (topologies.Node, error) {
	return c.LeaderAmong(context.Background(), c.Nodes())
}

// LeaderAmong is the member that the running, unpaused members of among agree leads:
// during a partition, ask one side.
func (c *etcdCluster) LeaderAmong(ctx context.Context, among []topologies.Node) (topologies.Node, error) {
	var lead uint64
	for _, x := range among {
		n, err := c.own(x)
		if err != nil {
			return nil, err
		}
		if !n.Running() || n.isPaused() {
			continue
		}
		l, err := seenLeader(ctx, n)
		if err != nil {
			return nil, fmt.Errorf("no agreed leader: %w", err)
		}
		if l == 0 || (lead != 0 && l != lead) {
			return nil, fmt.Errorf("no agreed leader: %s sees %x, another sees %x", n.name, l, lead)
		}
		lead = l
	}
	for _, n := range c.masters {
		if n.Running() && !n.isPaused() && c.id(n) == lead {
			return n, nil
		}
	}
	return nil, fmt.Errorf("no running member leads (leader id %x)", lead)
}

// WaitLeader polls Leader until the running members agree on one or ctx ends.
func (c *etcdCluster) WaitLeader(ctx context.Context) (topologies.Node, error) {
	return topologies.PollLeader(ctx, func(context.Context) (topologies.Node, error) { return c.Leader() })
}

// seenLeader asks the member itself (Status) which leader it knows of.
func seenLeader(ctx context.Context, n *node) (uint64, error) {
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{n.Addr()}, DialTimeout: time.Second, Logger: zap.NewNop()})
	if err != nil {
		return 0, err
	}
	defer cli.Close()
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	st, err := cli.Status(ctx, n.Addr())
	if err != nil {
		return 0, fmt.Errorf("%s: status: %w", n.name, err)
	}
	return st.Leader, nil
}
