// Package etcdtopo runs etcd members for the consensus baseline. It lives apart from
// package topologies so that programs that never start etcd do not carry its dependency
// tree, and it links no etcd server itself (package etcdrun does). It has two
// providers: "etcd-process", the default for etcd.Kind, runs each member in a child
// process of its own (a program that links etcdrun, re-executed), as Redis and ZooKeeper
// run; "embedded-etcd" runs every member inside this process, sharing its Go scheduler.
package etcdtopo

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/etcd/etcdtopo/memberfile"
	"github.com/lockbench/lockbench/topologies"
)

// AutoChoice runs etcd's members as processes: out of process is the fair baseline, the
// client measured alone in its process.
func AutoChoice() (string, string, error) {
	return "process", "etcd members run as child processes of this program", nil
}

// DefaultCompactionRetention is the registered providers' auto-compaction window
// (memberfile.DefaultCompaction says why it is short).
const DefaultCompactionRetention = memberfile.DefaultCompaction

// Embedded starts every member in this process, on 127.0.0.1, each in its own temp dir.
type Embedded struct {
	// CompactionRetention turns on periodic auto-compaction keeping this much history;
	// 0 never compacts (etcd's own default).
	CompactionRetention time.Duration
}

// EmbeddedName and ProcessName are the two providers' names, members of the embedded
// and process families for etcd.
const (
	EmbeddedName = "embedded-etcd"
	ProcessName  = "etcd-process"
)

func (Embedded) Name() string { return EmbeddedName }

// Start launches spec's cluster and returns once every member serves clients. On any
// failure it stops what it started and removes every temp dir.
func (p Embedded) Start(ctx context.Context, spec backend.Spec) (topologies.Topology, error) {
	spec, err := checkSpec(spec, p.Name(), p.CompactionRetention)
	if err != nil {
		return nil, err
	}
	if startServer == nil {
		return nil, fmt.Errorf("%s: %w", p.Name(), errNoServer)
	}
	c := &Cluster{spec: spec, compaction: p.CompactionRetention, provider: p.Name()}
	c.newMember = c.newEmbeddedMember
	if err := c.launch(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// Cluster is a running etcd cluster. Masters() and Nodes() both return its members (etcd
// has no fixed master: a member's Addr is its client endpoint); Replicas and Sentinels
// are empty. Endpoints lists the client endpoints for clientv3.
type Cluster struct {
	spec       backend.Spec
	compaction time.Duration
	provider   string
	// newMember makes one member (its dir, its addresses) of this provider's kind.
	newMember func(name, token string) (clusterMember, error)
	members   []clusterMember
	closeOnce sync.Once
}

func (c *Cluster) Spec() backend.Spec           { return c.spec }
func (c *Cluster) Provider() string             { return c.provider }
func (c *Cluster) Masters() []topologies.Node   { return c.Nodes() }
func (c *Cluster) Replicas() []topologies.Node  { return nil }
func (c *Cluster) Sentinels() []topologies.Node { return nil }
func (c *Cluster) Endpoints() []string          { return topologies.Addrs(c.Nodes()) }
func (c *Cluster) initialCluster() string       { return strings.Join(entries(c.members), ",") }
func (c *Cluster) Nodes() []topologies.Node {
	out := make([]topologies.Node, len(c.members))
	for i, m := range c.members {
		out[i] = m
	}
	return out
}

// Dirs are the members' temp dirs (for tests that check Close removes them).
func (c *Cluster) Dirs() []string {
	out := make([]string, len(c.members))
	for i, m := range c.members {
		out[i] = m.dirPath()
	}
	return out
}

// Close stops every member and removes every temp dir. Safe to call twice.
func (c *Cluster) Close() error {
	var err error
	c.closeOnce.Do(func() {
		for _, m := range c.members {
			m.close()
		}
		for _, m := range c.members {
			if rmErr := topologies.RemoveTempDir(m.dirPath()); rmErr != nil && err == nil {
				err = rmErr
			}
		}
	})
	return err
}

// launch makes every member's dir and gates first (the initial cluster names every
// member's peer gate), then starts them all and waits until each serves.
func (c *Cluster) launch(ctx context.Context) error {
	token := fmt.Sprintf("lockbench-%d", time.Now().UnixNano())
	for i := 0; i < c.spec.Members; i++ {
		m, err := c.newMember(fmt.Sprintf("member-%d", i), token)
		if err != nil {
			return err
		}
		c.members = append(c.members, m)
	}
	for _, m := range c.members {
		if err := m.start("new", c.initialCluster()); err != nil {
			return err
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for _, m := range c.members {
		if err := m.WaitReady(ctx); err != nil {
			return err
		}
		if err := settle(m); err != nil {
			return err
		}
	}
	return nil
}

// settle makes the names a member's first start made durable on a forgetful disk:
// etcd fsyncs its WAL and db files but not every directory entry it creates, which a
// journal commit would carry a few seconds later.
func settle(m clusterMember) error {
	if s, ok := m.(interface{ settleDisk() error }); ok {
		return s.settleDisk()
	}
	return nil
}

// newEmbeddedMember makes an in-process member's temp dir and gates; on failure nothing
// is left behind.
func (c *Cluster) newEmbeddedMember(name, token string) (clusterMember, error) {
	dir, err := topologies.NewTempDir("etcd-" + name)
	if err != nil {
		return nil, err
	}
	m := &member{name: name, dir: dir, noFsync: c.spec.UnsafeNoFsync, compaction: c.compaction, token: token, cluster: c}
	if m.client, err = newGate(); err == nil {
		m.peer, err = newGate()
	}
	if err != nil {
		if m.client != nil {
			m.client.close()
		}
		topologies.RemoveTempDir(dir)
		return nil, err
	}
	return m, nil
}

// Leader returns the member the running, unpaused members agree leads, or an error if
// they do not (an election in progress, a lost quorum). A paused member is not asked:
// cut off, it may still believe it leads.
func (c *Cluster) Leader() (topologies.Node, error) {
	var lead uint64
	for _, m := range c.members {
		if !m.Running() || m.Paused() {
			continue
		}
		l, err := m.seenLeader()
		if err != nil {
			return nil, fmt.Errorf("no agreed leader: %w", err)
		}
		if l == 0 || (lead != 0 && l != lead) {
			return nil, fmt.Errorf("no agreed leader: %s sees %x, another sees %x", m.Name(), l, lead)
		}
		lead = l
	}
	for _, m := range c.members {
		if m.Running() && !m.Paused() && m.currentID() == lead {
			return m, nil
		}
	}
	return nil, fmt.Errorf("no running member leads (leader id %x)", lead)
}

// WaitLeader polls Leader until the running members agree on one or ctx ends.
func (c *Cluster) WaitLeader(ctx context.Context) (topologies.Node, error) {
	return topologies.PollLeader(ctx, func(context.Context) (topologies.Node, error) { return c.Leader() })
}

func entries(ms []clusterMember) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.clusterEntry()
	}
	return out
}
