package embedded

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/alicebob/miniredis/v2/server"

	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/topologies"
)

// node is one miniredis server whose clock follows a model. miniredis TTLs move only
// when told to, so before every command the node advances its clock to the model's
// reading: expiry happens exactly at the model time a command would see it.
type node struct {
	name    string
	clock   *clocks.NodeClock
	truth   clocks.Clock // the true time the model reads: lag is measured on it
	skewed  bool         // named in Spec.Clocks; otherwise a true clock (still driven)
	persist bool         // AppendFsync set: data survives a restart, as a synced AOF would

	srv  *miniredis.Miniredis
	addr string

	tickMu   sync.Mutex
	last     time.Time     // model wall time the server was last advanced to
	lastReal time.Time     // true time of that advance
	maxLag   time.Duration // longest span between advances since MarkLag

	mu      sync.Mutex
	running bool
	stopped bool
	resume  chan struct{} // non-nil while paused; closed on Resume or Kill
	ticking chan struct{} // closed by stop to end the ticker
}

func startNode(name string, m clocks.Model, skewed, persist bool, clock clocks.Clock) (*node, error) {
	n := &node{name: name, clock: clocks.NewNodeClock(m, clock), truth: clock, skewed: skewed, persist: persist,
		srv: miniredis.NewMiniRedis()}
	n.last, n.lastReal = n.clock.Now(), clock.Now()
	n.srv.SetTime(n.last)
	if err := n.srv.StartAddr("127.0.0.1:0"); err != nil {
		return nil, fmt.Errorf("%s: start miniredis: %w", name, err)
	}
	n.addr = n.srv.Addr()
	n.running = true
	n.srv.Server().SetPreHook(n.beforeCommand)
	n.ticking = make(chan struct{})
	go n.tick(n.ticking)
	return n, nil
}

// advance moves the server's clock to the model's reading; backward steps lengthen
// TTLs, as Redis's absolute expiry times do.
func (n *node) advance() {
	n.tickMu.Lock()
	defer n.tickMu.Unlock()
	now, real := n.clock.Now(), n.truth.Now()
	d := now.Sub(n.last)
	n.maxLag = max(n.maxLag, real.Sub(n.lastReal))
	n.last, n.lastReal = now, real
	n.srv.SetTime(now)
	if d != 0 {
		n.srv.FastForward(d)
	}
}

// beforeCommand runs before each command: it holds the command while the node is
// paused (as SIGSTOP would) and then brings the clock up to date.
func (n *node) beforeCommand(_ *server.Peer, _ string, _ ...string) bool {
	n.mu.Lock()
	wait := n.resume
	n.mu.Unlock()
	if wait != nil {
		<-wait
		if !n.Running() {
			return true // killed while paused: the command dies with the connection
		}
	}
	// miniredis dispatches a script's redis.call()s through this hook too, while the
	// script holds the server's lock: advancing then would deadlock, and a script runs
	// at one instant anyway. The lock is also busy while another client's command runs;
	// the ticker brings the clock up to date within tickEvery then.
	if n.srv.TryLock() {
		n.srv.Unlock()
		n.advance()
	}
	return false
}

// MarkLag starts a new span for MaxLag.
func (n *node) MarkLag() {
	n.tickMu.Lock()
	defer n.tickMu.Unlock()
	n.maxLag = 0
}

// MaxLag is the longest the server's clock stood still since MarkLag: a busy machine
// can starve the ticker, and a key set then starts its TTL that much in the past.
func (n *node) MaxLag() time.Duration {
	n.tickMu.Lock()
	defer n.tickMu.Unlock()
	return max(n.maxLag, n.truth.Since(n.lastReal))
}

// tickEvery bounds how stale a node's clock can be when a command skipped advance.
const tickEvery = time.Millisecond

// tick advances the clock on a timer until done is closed.
func (n *node) tick(done <-chan struct{}) {
	t := time.NewTicker(tickEvery)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			n.advance()
		}
	}
}

func (n *node) Name() string          { return n.name }
func (n *node) Role() topologies.Role { return topologies.RoleMaster }
func (n *node) Addr() string          { return n.addr }

// Clock is the node's model clock, or nil when it keeps true time.
func (n *node) Clock() *clocks.NodeClock {
	if !n.skewed {
		return nil
	}
	return n.clock
}

func (n *node) Running() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.running
}

// Kill closes the listener and every connection at once; the data stays in memory
// for a restart that keeps it.
func (n *node) Kill() error {
	n.mu.Lock()
	if !n.running {
		n.mu.Unlock()
		return fmt.Errorf("%s: not running", n.name)
	}
	n.running = false
	n.releaseLocked()
	n.mu.Unlock()
	n.srv.Close()
	return nil
}

// Pause holds every later command unanswered until Resume; connections stay open.
func (n *node) Pause() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.running {
		return fmt.Errorf("%s: not running", n.name)
	}
	if n.resume == nil {
		n.resume = make(chan struct{})
	}
	return nil
}

func (n *node) Resume() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.running {
		return fmt.Errorf("%s: not running", n.name)
	}
	n.releaseLocked()
	return nil
}

// releaseLocked answers the commands a Pause held, if one did.
func (n *node) releaseLocked() {
	if n.resume != nil {
		close(n.resume)
		n.resume = nil
	}
}

// Restart kills the node if it runs and starts it on the same address. There is no
// disk: RestartFromDisk keeps the data only when the spec asked for persistence, and
// RestartWithSnapshot keeps it if the node could answer a SAVE (running, not paused).
func (n *node) Restart(ctx context.Context, mode topologies.RestartMode) error {
	if err := topologies.RefuseHostCrash(n.name, mode); err != nil {
		return err
	}
	n.mu.Lock()
	if n.stopped {
		n.mu.Unlock()
		return fmt.Errorf("%s: topology is closed", n.name)
	}
	keep := mode == topologies.RestartFromDisk && n.persist
	if mode == topologies.RestartWithSnapshot {
		keep = n.persist || (n.running && n.resume == nil)
	}
	n.mu.Unlock()
	if n.Running() {
		_ = n.Kill()
	}
	if !keep {
		n.srv.FlushAll()
	}
	// Bring the clock up to date first: the new listener serves for a moment before
	// the hook is back.
	n.advance()
	if err := n.srv.Restart(); err != nil {
		return fmt.Errorf("%s: restart on %s: %w", n.name, n.addr, err)
	}
	n.srv.Server().SetPreHook(n.beforeCommand)
	n.mu.Lock()
	n.running = true
	n.mu.Unlock()
	return ctx.Err()
}

// stop closes the node for good.
func (n *node) stop() {
	n.mu.Lock()
	if !n.stopped {
		close(n.ticking)
	}
	n.stopped = true
	n.mu.Unlock()
	if n.Running() {
		_ = n.Kill()
	}
}
