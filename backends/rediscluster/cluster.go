package rediscluster

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

	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/supervise"
)

// Slots is how many hash slots a Redis Cluster divides its keys into.
const Slots = 16384

// ProviderName is the process provider's name; --provider process picks it for clusters.
const ProviderName = "rediscluster-process"

func init() {
	topologies.RegisterProvider(Process{}, Kind)
	topologies.JoinFamily("process", Kind, ProviderName)
}

// Process starts a cluster's nodes as redis-server processes on 127.0.0.1.
type Process struct {
	Bin string // redis-server; empty means topologies.FindRedisServer
}

func (Process) Name() string { return ProviderName }

// Start launches spec's cluster and returns once every slot is served and every
// replica streams from its master.
func (p Process) Start(ctx context.Context, spec topologies.Spec) (topologies.Topology, error) {
	spec = spec.WithDefaults()
	if spec.Kind != Kind {
		return nil, fmt.Errorf("provider %s starts %s topologies only, not %q", ProviderName, Kind, spec.Kind)
	}
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	bin := p.Bin
	if bin == "" {
		var err error
		if bin, err = topologies.FindRedisServer(); err != nil {
			return nil, err
		}
	}
	dir, err := topologies.NewTempDir("cluster")
	if err != nil {
		return nil, err
	}
	c := &Cluster{spec: spec, dir: dir, bin: bin}
	if err := c.launch(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// Cluster is a running Redis Cluster: master-i serves the i-th share of the slots at
// start, and replica-i-j replicates it.
type Cluster struct {
	spec      topologies.Spec
	dir       string
	bin       string
	masters   []*node
	replicas  []*node
	closeOnce sync.Once
}

func (c *Cluster) Spec() topologies.Spec        { return c.spec }
func (c *Cluster) Provider() string             { return ProviderName }
func (c *Cluster) Dir() string                  { return c.dir }
func (c *Cluster) Masters() []topologies.Node   { return asNodes(c.masters) }
func (c *Cluster) Replicas() []topologies.Node  { return asNodes(c.replicas) }
func (c *Cluster) Sentinels() []topologies.Node { return nil }
func (c *Cluster) Nodes() []topologies.Node     { return asNodes(c.all()) }
func (c *Cluster) all() []*node                 { return append(append([]*node{}, c.masters...), c.replicas...) }

// ReplicasOf are the replicas that followed master-i at start (a failover may have
// swapped their roles since: ask the servers).
func (c *Cluster) ReplicasOf(i int) []topologies.Node {
	var out []topologies.Node
	for _, r := range c.replicas {
		if r.follows == i {
			out = append(out, r)
		}
	}
	return out
}

func asNodes(ns []*node) []topologies.Node {
	out := make([]topologies.Node, len(ns))
	for i, n := range ns {
		out[i] = n
	}
	return out
}

// Close kills every node and removes the cluster's dir. Safe twice.
func (c *Cluster) Close() error {
	var err error
	c.closeOnce.Do(func() {
		for _, n := range c.all() {
			n.stop()
		}
		err = topologies.RemoveTempDir(c.dir)
	})
	return err
}

func (c *Cluster) launch(ctx context.Context) error {
	for i := 0; i < c.spec.Masters; i++ {
		m, err := c.startNode(ctx, fmt.Sprintf("master-%d", i), topologies.RoleMaster, -1)
		if err != nil {
			return err
		}
		c.masters = append(c.masters, m)
	}
	for i := 0; i < c.spec.Masters; i++ {
		for j := 0; j < c.spec.Replicas; j++ {
			r, err := c.startNode(ctx, fmt.Sprintf("replica-%d-%d", i, j), topologies.RoleReplica, i)
			if err != nil {
				return err
			}
			c.replicas = append(c.replicas, r)
		}
	}
	return c.form(ctx)
}

// startNode leases a client and a bus port and starts the node, on new ports when a
// program outside lockbench bound one first.
func (c *Cluster) startNode(ctx context.Context, name string, role topologies.Role, follows int) (*node, error) {
	dir := filepath.Join(c.dir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var n *node
	err := supervise.RetryPorts(5, func() error {
		port, err := topologies.FreePort()
		if err != nil {
			return err
		}
		bus, err := topologies.FreePort()
		if err != nil {
			topologies.ReleasePort(port)
			return err
		}
		n = newNode(c, name, role, dir, port, bus)
		n.follows = follows
		if err := os.WriteFile(n.confPath(), []byte(n.config(c.spec)), 0o644); err != nil {
			n.stop()
			return err
		}
		startCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if err := n.Start(startCtx); err != nil {
			n.stop()
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return n, nil
}

// form joins the nodes by CLUSTER MEET, gives each master its share of the slots,
// makes each replica follow its master, and waits until the cluster serves.
func (c *Cluster) form(ctx context.Context) error {
	ids := map[*node]string{}
	for _, n := range c.all() {
		v, err := topologies.AdminQuery(ctx, n.Addr(), "CLUSTER", "MYID")
		if err != nil {
			return fmt.Errorf("%s: CLUSTER MYID: %w", n.name, err)
		}
		ids[n] = fmt.Sprint(v)
	}
	first := c.masters[0]
	for _, n := range c.all()[1:] {
		if err := topologies.AdminDo(ctx, first.Addr(), "CLUSTER", "MEET", "127.0.0.1", n.port, n.busPort); err != nil {
			return fmt.Errorf("CLUSTER MEET %s: %w", n.name, err)
		}
	}
	for i, m := range c.masters {
		lo, hi := SlotRange(i, len(c.masters))
		if err := topologies.AdminDo(ctx, m.Addr(), "CLUSTER", "ADDSLOTSRANGE", lo, hi); err != nil {
			return fmt.Errorf("%s: CLUSTER ADDSLOTSRANGE %d %d: %w", m.name, lo, hi, err)
		}
	}
	for _, r := range c.replicas {
		m := c.masters[r.follows]
		if err := c.replicate(ctx, r, m, ids[m]); err != nil {
			return err
		}
	}
	return c.WaitServing(ctx, 30*time.Second)
}

// replicate makes r follow master m (whose id is id), once r has heard of it on the
// bus; a handshake that did not complete (seen on a loaded machine) is met again.
func (c *Cluster) replicate(ctx context.Context, r, m *node, id string) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for try := 1; ; try++ {
		err := topologies.AdminDo(ctx, r.Addr(), "CLUSTER", "REPLICATE", id)
		if err == nil {
			return nil
		}
		if try%50 == 0 {
			_ = topologies.AdminDo(ctx, r.Addr(), "CLUSTER", "MEET", "127.0.0.1", m.port, m.busPort)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s: CLUSTER REPLICATE %s: %w", r.name, id, err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// SlotRange is master i's share [lo, hi] of the slots among masters.
func SlotRange(i, masters int) (lo, hi int) {
	return i * Slots / masters, (i+1)*Slots/masters - 1
}

// WaitServing waits until every running node reports cluster_state:ok with every slot
// served and knows every node, every running replica's link to its master is up, and
// every master's replicas acknowledge a write (WAIT answers at once from then on).
func (c *Cluster) WaitServing(ctx context.Context, limit time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	last := errors.New("not asked yet")
	for {
		if last = c.serving(ctx); last == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("cluster not serving after %v: %w", limit, last)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func (c *Cluster) serving(ctx context.Context) error {
	total := strconv.Itoa(len(c.all()))
	for _, n := range c.all() {
		if !n.Running() {
			continue
		}
		info, err := fields(ctx, n.Addr(), "CLUSTER", "INFO")
		if err != nil {
			return fmt.Errorf("%s: %w", n.name, err)
		}
		if info["cluster_state"] != "ok" || info["cluster_slots_ok"] != strconv.Itoa(Slots) || info["cluster_known_nodes"] != total {
			return fmt.Errorf("%s: state %s, %s slots ok, %s of %s nodes known", n.name, info["cluster_state"], info["cluster_slots_ok"], info["cluster_known_nodes"], total)
		}
		repl, err := topologies.Replication(ctx, n.Addr())
		if err != nil {
			return fmt.Errorf("%s: %w", n.name, err)
		}
		switch repl.Role {
		case "slave":
			if !repl.LinkUp {
				return fmt.Errorf("%s: link to master %s is down", n.name, repl.MasterAddr)
			}
		case "master":
			if err := c.acknowledged(ctx, n, repl); err != nil {
				return err
			}
		}
	}
	return nil
}

// acknowledged writes a marker in one of master n's slots and checks that its online
// replicas acknowledge it: until a replica's first ACK after a sync, WAIT times out.
func (c *Cluster) acknowledged(ctx context.Context, n *node, repl topologies.ReplicationInfo) error {
	want := 0
	for _, r := range repl.Replicas {
		if r.State == "online" {
			want++
		}
	}
	if want == 0 {
		return nil
	}
	key, err := KeyServedBy(ctx, n.Addr(), "lockbench:cluster-ready")
	if err != nil {
		return fmt.Errorf("%s: %w", n.name, err)
	}
	a := topologies.AdminClient(n.Addr())
	defer a.Close()
	a.Set(ctx, key, "1", 0)
	acked, err := a.Do(ctx, "WAIT", want, 100).Int()
	a.Del(ctx, key)
	if err != nil || acked < want {
		return fmt.Errorf("%s: %d of %d replicas acknowledged a write (%v)", n.name, acked, want, err)
	}
	return nil
}

// KeyServedBy returns prefix{N} for the first N whose slot the master at addr serves,
// asking the server which slot a key hashes to and which slots it serves.
func KeyServedBy(ctx context.Context, addr, prefix string) (string, error) {
	owned, err := servedSlots(ctx, addr)
	if err != nil {
		return "", err
	}
	for i := 0; i < 10000; i++ {
		key := fmt.Sprintf("%s{%d}", prefix, i)
		v, err := topologies.AdminQuery(ctx, addr, "CLUSTER", "KEYSLOT", key)
		if err != nil {
			return "", err
		}
		slot, _ := v.(int64)
		if owned(int(slot)) {
			return key, nil
		}
	}
	return "", fmt.Errorf("no key %s{N} hashes to a slot %s serves", prefix, addr)
}

// servedSlots asks addr which slots it serves as a master (CLUSTER NODES, its myself line).
func servedSlots(ctx context.Context, addr string) (func(int) bool, error) {
	v, err := topologies.AdminQuery(ctx, addr, "CLUSTER", "NODES")
	if err != nil {
		return nil, err
	}
	var ranges [][2]int
	for _, line := range strings.Split(fmt.Sprint(v), "\n") {
		f := strings.Fields(line)
		if len(f) < 8 || !strings.Contains(f[2], "myself") {
			continue
		}
		for _, r := range f[8:] {
			if strings.HasPrefix(r, "[") {
				continue // a slot being migrated
			}
			lo, hi, _ := strings.Cut(r, "-")
			a, _ := strconv.Atoi(lo)
			b := a
			if hi != "" {
				b, _ = strconv.Atoi(hi)
			}
			ranges = append(ranges, [2]int{a, b})
		}
	}
	return func(s int) bool {
		for _, r := range ranges {
			if s >= r[0] && s <= r[1] {
				return true
			}
		}
		return false
	}, nil
}

// KeyMaster is the address of the master serving key's slot, as the node at addr sees
// the cluster (CLUSTER KEYSLOT, then CLUSTER SLOTS).
func KeyMaster(ctx context.Context, addr, key string) (string, error) {
	c := topologies.AdminClient(addr)
	defer c.Close()
	slot, err := c.ClusterKeySlot(ctx, key).Result()
	if err != nil {
		return "", err
	}
	ranges, err := c.ClusterSlots(ctx).Result()
	if err != nil {
		return "", err
	}
	for _, r := range ranges {
		if int64(r.Start) <= slot && slot <= int64(r.End) && len(r.Nodes) > 0 {
			return r.Nodes[0].Addr, nil
		}
	}
	return "", fmt.Errorf("%s: no master serves slot %d of %s", addr, slot, key)
}
