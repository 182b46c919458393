// Package severed puts a topology's nodes behind proxies that one call cuts for good:
// every connection through them closed, every new one refused. A client built on the
// proxied topology then ends as a killed process's would: the servers see its
// connections close, and it never reaches them again (no goodbye, no release, no
// extension). Clients that learn other addresses from the servers (a Sentinel's
// master, a cluster's redirects) would bypass the proxies; the caller keeps to
// strategies that dial only the addresses given.
package severed

import (
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"

	"github.com/lockbench/lockbench/topologies"
)

// Topology is topo with every node's address replaced by its proxy's.
type Topology struct {
	topologies.Topology
	proxies []*proxy
	byAddr  map[string]*proxy // real address -> its proxy
}

// Wrap starts a proxy on 127.0.0.1 in front of each node of topo; sever cuts them all.
// A topology that names its server by a DSN (PostgreSQL) keeps one, at the proxy.
func Wrap(topo topologies.Topology) (wrapped topologies.Topology, sever func(), err error) {
	t := &Topology{Topology: topo, byAddr: map[string]*proxy{}}
	for _, n := range topo.Nodes() {
		p, err := listen(n.Addr())
		if err != nil {
			t.Sever()
			return nil, nil, fmt.Errorf("proxy for %s: %w", n.Name(), err)
		}
		t.proxies = append(t.proxies, p)
		t.byAddr[n.Addr()] = p
	}
	db, ok := topo.(interface{ DSN() string })
	if !ok {
		return t, t.Sever, nil
	}
	dsn := db.DSN()
	for real, p := range t.byAddr {
		if strings.Contains(dsn, real) {
			return &dsnTopology{t, strings.Replace(dsn, real, p.addr(), 1)}, t.Sever, nil
		}
	}
	t.Sever()
	return nil, nil, fmt.Errorf("the DSN names none of the nodes' addresses")
}

// dsnTopology is a proxied topology whose DSN names the proxy.
type dsnTopology struct {
	*Topology
	dsn string
}

func (t *dsnTopology) DSN() string { return t.dsn }

// Sever closes every proxy and every connection through it, for good. Safe to call twice.
func (t *Topology) Sever() {
	for _, p := range t.proxies {
		p.close()
	}
}

// Close severs the proxies; the topology underneath is the caller's to close.
func (t *Topology) Close() error {
	t.Sever()
	return nil
}

func (t *Topology) Masters() []topologies.Node   { return t.wrap(t.Topology.Masters()) }
func (t *Topology) Replicas() []topologies.Node  { return t.wrap(t.Topology.Replicas()) }
func (t *Topology) Sentinels() []topologies.Node { return t.wrap(t.Topology.Sentinels()) }
func (t *Topology) Nodes() []topologies.Node     { return t.wrap(t.Topology.Nodes()) }

func (t *Topology) wrap(nodes []topologies.Node) []topologies.Node {
	out := make([]topologies.Node, len(nodes))
	for i, n := range nodes {
		out[i] = node{Node: n, addr: t.byAddr[n.Addr()].addr()}
	}
	return out
}

// node is a real node seen at its proxy's address.
type node struct {
	topologies.Node
	addr string
}

func (n node) Addr() string { return n.addr }

// proxy forwards every connection it accepts to one upstream address.
type proxy struct {
	ln       net.Listener
	upstream string
	mu       sync.Mutex
	conns    map[net.Conn]bool
	closed   bool
}

func listen(upstream string) (*proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &proxy{ln: ln, upstream: upstream, conns: map[net.Conn]bool{}}
	go p.serve()
	return p, nil
}

func (p *proxy) addr() string { return p.ln.Addr().String() }

func (p *proxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return // closed
		}
		go p.forward(c)
	}
}

// forward pipes c to a new connection to the upstream, both ways, until either ends.
func (p *proxy) forward(c net.Conn) {
	var d net.Dialer
	up, err := d.DialContext(context.Background(), "tcp", p.upstream)
	if err != nil {
		_ = c.Close()
		return
	}
	if !p.track(c, up) {
		return
	}
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		_, _ = io.Copy(dst, src)
		done <- struct{}{}
	}
	go pipe(up, c)
	go pipe(c, up)
	<-done // one side ended: end both, as a dead peer's kernel would
	p.untrack(c, up)
	<-done
}

// track keeps both ends to close them on Sever; false (and both closed) once severed.
func (p *proxy) track(conns ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		closeAll(conns)
		return false
	}
	for _, c := range conns {
		p.conns[c] = true
	}
	return true
}

func (p *proxy) untrack(conns ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range conns {
		delete(p.conns, c)
	}
	closeAll(conns)
}

func (p *proxy) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.closed = true
	_ = p.ln.Close()
	for c := range p.conns {
		_ = c.Close()
	}
	clear(p.conns)
}

func closeAll(conns []net.Conn) {
	for _, c := range conns {
		_ = c.Close()
	}
}
