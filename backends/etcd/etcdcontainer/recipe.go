// Package etcdcontainer runs etcd with the container provider: each member is this
// program re-executed in a container of its own (etcdtopo's member entry), started from
// the member file the etcd-process provider writes too. Start is its recipe for
// topologies/container; it imports no etcd server, only the client.
package etcdcontainer

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

	"github.com/lockbench/lockbench/backends/etcd/etcdtopo/memberfile"
	"github.com/lockbench/lockbench/backends/etcd/etcdtopo/membership"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/container"
)

// cluster is an etcd cluster in containers, with etcdtopo.Cluster's methods.
type cluster struct {
	*container.Topology
	token string
	idMu  sync.Mutex
	ids   map[*container.Server]uint64 // raft ID each member reported when ready
}

func (c *cluster) Endpoints() []string { return topologies.Addrs(c.Nodes()) }

func (c *cluster) id(s *container.Server) uint64 {
	c.idMu.Lock()
	defer c.idMu.Unlock()
	return c.ids[s]
}

func peerAddr(s *container.Server) string { return "127.0.0.1:" + strconv.Itoa(s.PeerPorts()[0]) }

func (c *cluster) initialCluster() string {
	var es []string
	for _, m := range c.Servers() {
		es = append(es, m.Name()+"=http://"+peerAddr(m))
	}
	return strings.Join(es, ",")
}

// Start starts every member's container together and returns once each reports ready
// (ReadyNotify, the process provider's check).
func Start(ctx context.Context, d *container.Topology) (topologies.Topology, error) {
	// A member is this program re-executed: only etcdtopo's init turns it into one.
	if _, err := topologies.ProviderNamed("etcd-process"); err != nil {
		return nil, fmt.Errorf(
			"this program does not link backends/etcd/etcdtopo, whose member entry every container runs (import it): %w", err)
	}
	image, mounts, err := container.OnceImage("etcd", func() (string, []string, error) {
		tag, exe, err := buildImage(ctx, d)
		return tag, []string{exe}, err
	})
	if err != nil {
		return nil, err
	}
	exe := mounts[0]
	c := &cluster{Topology: d, token: fmt.Sprintf("lockbench-%d", time.Now().UnixNano()),
		ids: map[*container.Server]uint64{}}
	members := d.Spec().Members
	ports, err := d.Ports(2 * members)
	if err != nil {
		return nil, err
	}
	for i := 0; i < members; i++ {
		name := fmt.Sprintf("member-%d", i)
		d.AddServer(name, topologies.RoleMember, ports[2*i], ports[2*i+1:2*i+2], container.Service{
			Image:   image,
			Command: func(*container.Server) []string { return []string{exe} },
			Env:     map[string]string{memberfile.Env: filepath.Join(d.Dir(), name, "member.json")},
			User:    fmt.Sprintf("%d:%d", os.Getuid(), os.Getgid()),
			Mounts:  []string{exe},
			Ready:   c.ready,
			Prepare: c.prepare,
			Forget:  func(s *container.Server) error { return os.RemoveAll(filepath.Join(s.Dir(), "data")) },
		})
	}
	if err := d.Start(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

// prepare writes the member file: a new cluster at the first start, the existing one
// after; a member restarted empty in a larger cluster is first removed and added back
// through the others, as etcdtopo does (a lone one starts a new cluster).
func (c *cluster) prepare(ctx context.Context, s *container.Server, mode topologies.RestartMode, first bool) error {
	if err := os.MkdirAll(s.Dir(), 0o755); err != nil {
		return err
	}
	state := "existing"
	if first || (mode == topologies.RestartEmpty && len(c.Servers()) == 1) {
		state = "new"
	} else if mode == topologies.RestartEmpty {
		if err := c.replace(ctx, s); err != nil {
			return fmt.Errorf("%s: re-add with an empty disk: %w", s.Name(), err)
		}
	}
	ready := filepath.Join(s.Dir(), "ready.json")
	if err := os.Remove(ready); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	// Listening on the container's interfaces while every address says 127.0.0.1, which
	// the wire rules carry to the right container; no parent is watched (ParentPid 0).
	return memberfile.Write(filepath.Join(s.Dir(), "member.json"), memberfile.File{
		Member: memberfile.Member{
			Name: s.Name(), DataDir: filepath.Join(s.Dir(), "data"), LogPath: filepath.Join(s.Dir(), "etcd.log"),
			ListenClient: "0.0.0.0:" + strconv.Itoa(s.Port()), AdvertiseClient: s.Addr(),
			ListenPeer: "0.0.0.0:" + strconv.Itoa(s.PeerPorts()[0]), AdvertisePeer: peerAddr(s),
			InitialCluster: c.initialCluster(), Token: c.token, State: state,
			NoFsync: c.Spec().UnsafeNoFsync, Compaction: memberfile.DefaultCompaction,
		},
		ReadyPath: ready,
	})
}

// ready waits for the ready file the member writes once etcd's ReadyNotify fired: up to
// three minutes, as a container engine that the compile beside it slows may need.
func (c *cluster) ready(ctx context.Context, s *container.Server) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	for {
		if id, err := memberfile.ReadyID(filepath.Join(s.Dir(), "ready.json")); err == nil {
			c.idMu.Lock()
			c.ids[s] = id
			c.idMu.Unlock()
			return nil
		}
		if s.Exited() {
			return fmt.Errorf("%s exited before ready; log: %s %s", s.Name(), s.Log(), s.FileLog("etcd.log"))
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s not ready: %w; log: %s", s.Name(), ctx.Err(), s.FileLog("etcd.log"))
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// replace removes s's old raft identity and adds its peer address back, through the
// members still running.
func (c *cluster) replace(ctx context.Context, s *container.Server) error {
	var others []string
	for _, o := range c.Servers() {
		if o != s && o.Running() {
			others = append(others, o.Addr())
		}
	}
	return membership.Replace(ctx, others, c.id(s), "http://"+peerAddr(s))
}

// Leader is the member the running, unpaused members agree leads (etcdtopo's rule).
func (c *cluster) Leader() (topologies.Node, error) {
	return c.LeaderAmong(context.Background(), c.Nodes())
}

// LeaderAmong is the member that the running, unpaused members of among agree leads:
// during a partition, ask one side.
func (c *cluster) LeaderAmong(ctx context.Context, among []topologies.Node) (topologies.Node, error) {
	var lead uint64
	for _, x := range among {
		s, err := c.Own(x)
		if err != nil {
			return nil, err
		}
		if !s.Running() || s.Paused() {
			continue
		}
		l, err := seenLeader(ctx, s)
		if err != nil {
			return nil, fmt.Errorf("no agreed leader: %w", err)
		}
		if l == 0 || (lead != 0 && l != lead) {
			return nil, fmt.Errorf("no agreed leader: %s sees %x, another sees %x", s.Name(), l, lead)
		}
		lead = l
	}
	for _, s := range c.Servers() {
		if s.Running() && !s.Paused() && c.id(s) == lead {
			return s, nil
		}
	}
	return nil, fmt.Errorf("no running member leads (leader id %x)", lead)
}

// WaitLeader polls Leader until the running members agree on one or ctx ends.
func (c *cluster) WaitLeader(ctx context.Context) (topologies.Node, error) {
	return topologies.PollLeader(ctx, func(context.Context) (topologies.Node, error) { return c.Leader() })
}

// seenLeader asks the member itself (Status) which leader it knows of.
func seenLeader(ctx context.Context, s *container.Server) (uint64, error) {
	cli,
		err := clientv3.New(clientv3.Config{Endpoints: []string{s.Addr()}, DialTimeout: time.Second, Logger: zap.NewNop()})
	if err != nil {
		return 0, err
	}
	defer cli.Close()
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	st, err := cli.Status(ctx, s.Addr())
	if err != nil {
		return 0, fmt.Errorf("%s: status: %w", s.Name(), err)
	}
	return st.Leader, nil
}
