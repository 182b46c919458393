package etcdtopo

import (
	"context"
	"net"
	"sync"
	"time"

	"github.com/lockbench/lockbench/internal/pausegate"
)

// gate is a TCP forwarder in front of one port of one member. Its address is what the
// member advertises, so it stays the same across restarts (the member itself listens on
// a fresh kernel-chosen port each time), and it is how a member is paused: a frozen gate
// keeps every connection open but moves no byte, as a SIGSTOPped process would.
type gate struct {
	ln net.Listener

	mu      sync.Mutex
	backend string // where to forward; "" while the member is down
	conns   map[net.Conn]struct{}
	closed  bool
	wg      sync.WaitGroup

	frozen pausegate.Gate // paused while the member is
}

func newGate() (*gate, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	g := &gate{ln: ln, conns: map[net.Conn]struct{}{}}
	g.wg.Add(1)
	go g.accept()
	return g, nil
}

// Addr is the stable host:port clients and peers use.
func (g *gate) Addr() string { return g.ln.Addr().String() }

// setBackend points new connections at addr; "" refuses them (the member is down).
func (g *gate) setBackend(addr string) {
	g.mu.Lock()
	g.backend = addr
	g.mu.Unlock()
}

// freeze stops every byte in both directions until thaw.
func (g *gate) freeze() { g.frozen.Pause() }

func (g *gate) thaw() { g.frozen.Resume() }

// cut closes every open connection, as the kernel does for a killed process.
func (g *gate) cut() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for c := range g.conns {
		c.Close()
	}
}

// close stops listening, cuts every connection and waits for the forwarders to end.
func (g *gate) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	g.ln.Close()
	g.thaw() // frozen forwarders must run to see their closed connections
	g.cut()
	g.wg.Wait()
}

func (g *gate) accept() {
	defer g.wg.Done()
	for {
		c, err := g.ln.Accept()
		if err != nil {
			return
		}
		if !g.track(c) {
			c.Close()
			return
		}
		g.wg.Add(1)
		go g.forward(c)
	}
}

func (g *gate) track(c net.Conn) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return false
	}
	g.conns[c] = struct{}{}
	return true
}

func (g *gate) untrack(c net.Conn) {
	g.mu.Lock()
	delete(g.conns, c)
	g.mu.Unlock()
	c.Close()
}

// waitOpen blocks while the gate is frozen (close thaws it, so this cannot hang).
func (g *gate) waitOpen() { g.frozen.Wait(context.Background()) }

func (g *gate) forward(in net.Conn) {
	defer g.wg.Done()
	defer g.untrack(in)
	// A stopped process accepts nothing: a connection made while frozen waits here.
	g.waitOpen()
	g.mu.Lock()
	backend := g.backend
	g.mu.Unlock()
	if backend == "" {
		return
	}
	out, err := net.DialTimeout("tcp", backend, time.Second)
	if err != nil {
		return
	}
	if !g.track(out) {
		out.Close()
		return
	}
	defer g.untrack(out)
	var pipes sync.WaitGroup
	pipes.Add(2)
	go func() { defer pipes.Done(); g.pipe(out, in) }()
	go func() { defer pipes.Done(); g.pipe(in, out) }()
	pipes.Wait()
}

// pipe copies src to dst, holding each chunk while the gate is frozen. Either side
// ending closes both, so the other direction ends too.
func (g *gate) pipe(dst, src net.Conn) {
	defer dst.Close()
	defer src.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			g.waitOpen()
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}
