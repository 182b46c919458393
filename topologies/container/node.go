package container

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/clocks/faketime"
	"github.com/lockbench/lockbench/topologies"
)

// Server is one server of a recipe's deployment, in its own container: Kill, Pause,
// Resume and Restart act on the container. Its dir is a host dir mounted at the same
// path, so a restart can forget data and the clock layer's timestamp file is where
// libfaketime inside looks for it.
type Server struct {
	topo *topology
	name string
	role topologies.Role
	port int            // published on 127.0.0.1 and listened on inside
	dir  string         // host dir, mounted at the same path
	skew *faketime.Node // nil keeps true time
	svc  *Service       // what the server runs, from its store's recipe
	// peerPorts are further ports the node's peers reach it on (never published).
	peerPorts []int

	mu      sync.Mutex // serialises lifecycle operations on this node
	id      string     // container id
	paused  bool
	stopped bool // Close was called: never start again

	// ip and proc change with every container start; guarded by topo.wireMu.
	ip   string
	proc hostProc
}

func (n *Server) Name() string          { return n.name }
func (n *Server) Role() topologies.Role { return n.role }
func (n *Server) Addr() string          { return net.JoinHostPort("127.0.0.1", strconv.Itoa(n.port)) }

// ContainerID is the engine's id of the node's container.
func (n *Server) ContainerID() string { return n.id }

func (n *Server) Running() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.runningLocked()
}

func (n *Server) runningLocked() bool {
	return n.id != "" && n.topo.procOf(n).running()
}

// Pause freezes every process of the container (the engine's cgroup freezer): it keeps
// its sockets and answers nothing, as SIGSTOP does to a process.
func (n *Server) Pause() error {
	return n.freeze("pause", true, func(ctx context.Context) error {
		return pauseUntilFrozen(ctx, func(ctx context.Context) error { return n.topo.eng.Pause(ctx, n.id) })
	})
}

// freezeRetryEvery spaces the engine's pauses after a freeze that did not take.
const freezeRetryEvery = 100 * time.Millisecond

// pauseUntilFrozen asks pause again while the engine's runtime reports that the cgroup
// freezer did not take: runc gives up on a cgroup left FREEZING (a loaded machine, a
// process in the kernel), thaws it and says "unable to freeze", so the container runs on
// and the pause can be asked again. Any other error, or ctx's end, is the pause's error.
func pauseUntilFrozen(ctx context.Context, pause func(context.Context) error) error {
	for {
		err := pause(ctx)
		if err == nil || !strings.Contains(err.Error(), "unable to freeze") || ctx.Err() != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(freezeRetryEvery):
		}
	}
}

func (n *Server) Resume() error {
	return n.freeze("resume", false, func(ctx context.Context) error {
		return n.topo.eng.Unpause(ctx, n.id)
	})
}

// freeze asks the engine to pause or unpause the container (call), bounded in time, and
// records paused once it has.
func (n *Server) freeze(verb string, paused bool, call func(ctx context.Context) error) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := call(ctx); err != nil {
		return fmt.Errorf("%s: %s: %w", n.name, verb, err)
	}
	n.paused = paused
	return nil
}

func (n *Server) Kill() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.runningLocked() {
		return fmt.Errorf("%s: not running", n.name)
	}
	if err := n.killLocked(); err != nil {
		return err
	}
	// Kill returns when the node is dead, as a SIGKILL would; the peers' rules follow at once.
	go func() { _ = n.topo.rewire() }()
	return nil
}

// killLocked SIGKILLs the container's server from the host, as the process provider
// does (the engine's kill waits for its own clean-up, seconds under load), and waits
// until it is dead. Once the other nodes' rules are rewritten (rewire) they stop carrying
// traffic to it, so they meet a refused connection, as with a dead process.
func (n *Server) killLocked() error {
	p := n.topo.procOf(n)
	if !p.running() { // it died on its own: its pid may be another program's now
		n.topo.setAddress(n, "", hostProc{})
		return nil
	}
	if err := syscall.Kill(p.pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("%s: kill pid %d: %w", n.name, p.pid, err)
	}
	if n.paused {
		// A frozen task dies only when thawed; the signal is already pending, so it runs no code.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_ = n.topo.eng.Unpause(ctx, n.id)
		cancel()
		n.paused = false
	}
	deadline := time.Now().Add(10 * time.Second)
	for p.running() {
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: pid %d still alive 10 s after SIGKILL", n.name, p.pid)
		}
		time.Sleep(time.Millisecond)
	}
	n.topo.setAddress(n, "", hostProc{})
	return nil
}

// waitEngineStopped waits until the engine has seen the container stop: it refuses to
// start a container it still counts as running.
func (n *Server) waitEngineStopped(ctx context.Context) error {
	for {
		st, err := n.topo.eng.Inspect(ctx, n.id, n.topo.netName)
		if err != nil {
			return fmt.Errorf("%s: inspect: %w", n.name, err)
		}
		if !st.Running {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s: the engine still counts it running: %w", n.name, ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func (n *Server) Restart(ctx context.Context, mode topologies.RestartMode) error {
	if err := topologies.RefuseHostCrash(n.Name(), mode); err != nil {
		return err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.stopped {
		return fmt.Errorf("%s: topology is closed", n.name)
	}
	return n.restartService(ctx, mode, n.runningLocked())
}

// startAgain starts n's stopped container once the engine has seen it stop, and waits
// until it serves, all within budget: the last step of every restart.
func (n *Server) startAgain(ctx context.Context, budget time.Duration) error {
	sctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	if err := n.waitEngineStopped(sctx); err != nil {
		return err
	}
	if err := n.topo.eng.Start(sctx, n.id); err != nil {
		return fmt.Errorf("%s: start: %w", n.name, err)
	}
	return n.started(sctx)
}

// started learns the new container's address, wires it to the others (and them to it),
// and waits until it answers on its published port.
func (n *Server) started(ctx context.Context) error {
	st, err := n.topo.eng.Inspect(ctx, n.id, n.topo.netName)
	if err != nil {
		return fmt.Errorf("%s: inspect: %w", n.name, err)
	}
	if st.IP == "" || st.Pid == 0 {
		return fmt.Errorf("%s: container has no address on %s, or no process", n.name, n.topo.netName)
	}
	proc, err := procOf(st.Pid)
	if err != nil {
		return fmt.Errorf("%s: its server exited as it started: %w", n.name, err)
	}
	n.topo.setAddress(n, st.IP, proc)
	if err := n.topo.rewire(); err != nil {
		return fmt.Errorf("%s: %w", n.name, err)
	}
	return n.svc.Ready(ctx, n)
}

// Clock is the node's model clock, or nil when it keeps true time.
func (n *Server) Clock() *clocks.NodeClock {
	if n.skew == nil {
		return nil
	}
	return n.skew.Clock()
}
