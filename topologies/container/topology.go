package container

import (
	"fmt"
	"sort"
	"sync"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/topologies"
)

// topology is a deployment whose nodes are containers on a network made for it.
type topology struct {
	spec    backend.Spec
	eng     Engine // the container engine every node is asked through
	image   string
	dir     string // host temp dir holding every node's dir
	netName string
	netID   string

	masters, replicas, sentinels []*Server

	idsMu  sync.Mutex
	ids    []string // every container created, for Close and the reaper
	forget func()   // unregisters the reaper's cleanup

	wireMu sync.Mutex
	cuts   map[[2]string]bool // node name pairs, sorted
	hooked map[*Server]bool   // nodes whose current container has the hook rules

	leaseMu sync.Mutex
	leased  []int // ports leased for t's nodes (host ports, and peer ports the wire rules name)

	closeOnce sync.Once
	closeErr  error
}

func (t *topology) Spec() backend.Spec           { return t.spec }
func (t *topology) Provider() string             { return "container" }
func (t *topology) Masters() []topologies.Node   { return asNodes(t.masters) }
func (t *topology) Replicas() []topologies.Node  { return asNodes(t.replicas) }
func (t *topology) Sentinels() []topologies.Node { return asNodes(t.sentinels) }
func (t *topology) Nodes() []topologies.Node     { return asNodes(t.all()) }

// Image is the image the nodes run.
func (t *topology) Image() string { return t.image }

func (t *topology) all() []*Server {
	return append(append(append([]*Server{}, t.masters...), t.replicas...), t.sentinels...)
}

func asNodes(ns []*Server) []topologies.Node {
	out := make([]topologies.Node, len(ns))
	for i, n := range ns {
		out[i] = n
	}
	return out
}

func (t *topology) track(id string) {
	t.idsMu.Lock()
	defer t.idsMu.Unlock()
	t.ids = append(t.ids, id)
}

func (t *topology) trackedIDs() []string {
	t.idsMu.Lock()
	defer t.idsMu.Unlock()
	return append([]string(nil), t.ids...)
}

// Close removes every container, the network and the host dir. Safe to call twice.
func (t *topology) Close() error {
	t.closeOnce.Do(func() {
		for _, n := range t.all() {
			n.mu.Lock()
			n.stopped = true
			n.mu.Unlock()
			n.skew.Close()
		}
		t.closeErr = removeAll(t.eng, t.trackedIDs(), t.netID)
		t.releasePorts() // after the containers are gone: no published port is bound any more
		if t.forget != nil {
			t.forget()
		}
		if t.dir != "" {
			if err := topologies.RemoveTempDir(t.dir); err != nil && t.closeErr == nil {
				t.closeErr = err
			}
		}
	})
	return t.closeErr
}

// setAddress records n's container IP and init (empty and none once it stopped).
func (t *topology) setAddress(n *Server, ip string, proc hostProc) {
	t.wireMu.Lock()
	defer t.wireMu.Unlock()
	n.ip, n.proc = ip, proc
	delete(t.hooked, n)
}

// procOf is n's container init, none while it is not running.
func (t *topology) procOf(n *Server) hostProc {
	t.wireMu.Lock()
	defer t.wireMu.Unlock()
	return n.proc
}

// rewire rewrites the rules of every running node from the current addresses and cuts.
func (t *topology) rewire() error {
	t.wireMu.Lock()
	defer t.wireMu.Unlock()
	return t.rewireLocked(t.all())
}

func (t *topology) rewireLocked(targets []*Server) error {
	for _, n := range targets {
		if !n.proc.running() { // stopped, or died on its own: no namespace of its to write
			continue
		}
		var peers []peer
		for _, m := range t.all() {
			if m != n {
				peers = append(peers, peer{ports: append([]int{m.port}, m.peerPorts...), ip: m.ip, cut: t.cuts[pairOf(n, m)]})
			}
		}
		if err := applyRules(n.proc.pid, peers, !t.hooked[n]); err != nil {
			return fmt.Errorf("%s: %w", n.name, err)
		}
		t.hooked[n] = true
	}
	return nil
}

func pairOf(a, b *Server) [2]string {
	p := []string{a.name, b.name}
	sort.Strings(p)
	return [2]string{p[0], p[1]}
}

// own returns x as a node of this topology, or an error naming it.
func (t *topology) own(x topologies.Node) (*Server, error) {
	if n, ok := x.(*Server); ok && n.topo == t {
		return n, nil
	}
	name := "<nil>"
	if x != nil {
		name = x.Name() + " at " + x.Addr()
	}
	return nil, fmt.Errorf(
		"partition: node %s is not a node of this container topology (nodes of different topologies share no link to "+
			"cut)", name)
}

// Cut drops every packet between a and b, both ways, inside both containers' namespaces.
func (t *topology) Cut(a, b topologies.Node) error { return t.setCut(a, b, true) }

// Heal restores the link between a and b.
func (t *topology) Heal(a, b topologies.Node) error { return t.setCut(a, b, false) }

func (t *topology) setCut(a, b topologies.Node, cut bool) error {
	na, err := t.own(a)
	if err != nil {
		return err
	}
	nb, err := t.own(b)
	if err != nil {
		return err
	}
	if na == nb {
		return fmt.Errorf("partition: %s cannot be cut from itself", na.name)
	}
	t.wireMu.Lock()
	defer t.wireMu.Unlock()
	if cut {
		t.cuts[pairOf(na, nb)] = true
	} else {
		delete(t.cuts, pairOf(na, nb))
	}
	return t.rewireLocked([]*Server{na, nb})
}

// HealAll restores every cut link.
func (t *topology) HealAll() error {
	t.wireMu.Lock()
	defer t.wireMu.Unlock()
	t.cuts = map[[2]string]bool{}
	return t.rewireLocked(t.all())
}

var _ topologies.Partitioner = (*topology)(nil)
