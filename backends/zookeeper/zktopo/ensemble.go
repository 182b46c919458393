// Package zktopo runs Apache ZooKeeper as processes of its own, the way package
// topologies runs redis-server: a JVM per server, from the Debian package's jars
// (/usr/share/java/zookeeper.jar) with this package's own zoo.cfg and log4j config in a
// temp dir; on 127.0.0.1 with free client, quorum and election ports; no admin server;
// each in its own process group with a parent-death signal, under the same reaper;
// stopped and removed on every path. One server runs standalone; 3 or 5 form an
// ensemble. It lives apart from package topologies so that programs that never start
// ZooKeeper do not carry it; importing it registers the "zookeeper-process" provider as
// the default for zookeeper.Kind.
package zktopo

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/zookeeper"
	"github.com/lockbench/lockbench/backends/zookeeper/zktopo/srvr"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/supervise"
)

// AutoChoice runs the servers as processes; containers copy the host's Java and jars,
// so without them nothing can serve zookeeper.
func AutoChoice() (string, string, error) {
	if _, err := zookeeper.Find(); err != nil {
		return "", "", fmt.Errorf("provider auto: no provider can serve zookeeper: %w", err)
	}
	return "process", "Java and the ZooKeeper jars are installed", nil
}

// readyTimeout bounds a start or restart: a JVM starts in about a second, an ensemble
// elects a leader in a few ticks more.
const readyTimeout = 60 * time.Second

// portAttempts is how often a start picks new ports after another program took one.
const portAttempts = 5

// Process starts every server as a java process on 127.0.0.1.
type Process struct {
	// TickTime is ZooKeeper's basic time unit (default DefaultTickTime): sessions last
	// between 2 ticks and MaxSessionTimeout, a follower drops a silent leader after 5.
	TickTime time.Duration
}

// ProviderName is the process provider's name; --provider process picks it for zookeeper.
const ProviderName = "zookeeper-process"

func (Process) Name() string { return ProviderName }

// Start launches spec's servers and returns once every one answers srvr and one leads.
// On any failure it stops what it started and removes the temp dir.
func (p Process) Start(ctx context.Context, spec backend.Spec) (topologies.Topology, error) {
	spec, err := topologies.SpecOfOwnKind(spec, zookeeper.Kind, ProviderName)
	if err != nil {
		return nil, err
	}
	tick := p.TickTime
	if tick == 0 {
		tick = DefaultTickTime
	}
	if tick < time.Millisecond || tick%time.Millisecond != 0 {
		return nil, fmt.Errorf("tick time = %v: must be whole milliseconds, at least 1 ms", tick)
	}
	install, err := zookeeper.Find()
	if err != nil {
		return nil, err
	}
	dir, err := topologies.NewTempDir("zookeeper")
	if err != nil {
		return nil, err
	}
	e := &Ensemble{spec: spec, tick: tick, install: install, dir: dir}
	for i := 0; i < spec.Members; i++ {
		e.servers = append(e.servers, newServer(e, i))
	}
	if err := e.mountDisks(); err != nil {
		e.Close()
		return nil, err
	}
	if err := e.launch(ctx); err != nil {
		e.Close()
		return nil, err
	}
	for _, s := range e.servers {
		if err := s.settleDisk(ctx); err != nil {
			e.Close()
			return nil, err
		}
	}
	return e, nil
}

// mountDisks puts every server's data dir on a disk that forgets, when the spec asks.
func (e *Ensemble) mountDisks() error {
	if !e.spec.ForgetfulDisk {
		return nil
	}
	for _, s := range e.servers {
		if err := s.mountDisk(); err != nil {
			return err
		}
	}
	return nil
}

// Ensemble is a running ZooKeeper ensemble (or one standalone server). Masters() and
// Nodes() both return its servers (who leads is the servers' business: Leader asks);
// a server's Addr is its client address. Replicas and Sentinels are empty.
type Ensemble struct {
	spec      backend.Spec
	tick      time.Duration
	install   zookeeper.Install
	dir       string
	servers   []*server
	closeOnce sync.Once
}

func (e *Ensemble) Spec() backend.Spec           { return e.spec }
func (e *Ensemble) Provider() string             { return Process{}.Name() }
func (e *Ensemble) Masters() []topologies.Node   { return e.Nodes() }
func (e *Ensemble) Replicas() []topologies.Node  { return nil }
func (e *Ensemble) Sentinels() []topologies.Node { return nil }
func (e *Ensemble) Nodes() []topologies.Node {
	out := make([]topologies.Node, len(e.servers))
	for i, s := range e.servers {
		out[i] = s
	}
	return out
}

// Servers are the client addresses (host:port), the connect string's parts.
func (e *Ensemble) Servers() []string { return topologies.Addrs(e.Nodes()) }

// Dir holds every server's dir; Close removes it.
func (e *Ensemble) Dir() string { return e.dir }

// TickTime is the servers' tick.
func (e *Ensemble) TickTime() time.Duration { return e.tick }

// MinSessionTimeout is the shortest session the servers grant: 2 ticks.
func (e *Ensemble) MinSessionTimeout() time.Duration { return 2 * e.tick }

// MaxSessionTimeout is the longest session the servers grant.
func (e *Ensemble) MaxSessionTimeout() time.Duration { return MaxSessionTimeout }

// Pids are the running servers' JVM process ids (for tests that check Close).
func (e *Ensemble) Pids() []int {
	var out []int
	for _, s := range e.servers {
		if pid := s.Pid(); pid != 0 {
			out = append(out, pid)
		}
	}
	return out
}

// Close kills every server and removes the temp dir. Safe to call twice.
func (e *Ensemble) Close() error {
	var err error
	e.closeOnce.Do(func() {
		var unmounts []error
		for _, s := range e.servers {
			s.Close()
			unmounts = append(unmounts, s.disk.Unmount())
		}
		e.releasePorts()
		err = errors.Join(append(unmounts, topologies.RemoveTempDir(e.dir))...)
	})
	return err
}

// launch picks free ports for every server, starts them all and waits until they
// serve with one leader; when another program took a port first, it stops them all and
// picks again (the ports are in every member's config).
func (e *Ensemble) launch(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	return supervise.RetryPorts(portAttempts, func() error {
		if err := e.pickPorts(); err != nil {
			return err
		}
		err := e.startAll(ctx)
		if errors.Is(err, supervise.ErrPortTaken) { // every member's config names the ports
			for _, s := range e.servers {
				_ = s.Halt()
			}
		}
		return err
	})
}

func (e *Ensemble) pickPorts() error {
	e.releasePorts() // an earlier attempt's: one of them is someone else's now
	for _, s := range e.servers {
		for _, p := range []*int{&s.ports.Client, &s.ports.Quorum, &s.ports.Election} {
			port, err := topologies.FreePort()
			if err != nil {
				return err
			}
			*p = port
		}
	}
	return nil
}

func (e *Ensemble) startAll(ctx context.Context) error {
	for _, s := range e.servers {
		if err := s.Launch(); err != nil {
			return err
		}
	}
	for _, s := range e.servers {
		if err := s.WaitReady(ctx); err != nil {
			return err
		}
	}
	_, err := e.WaitLeader(ctx)
	return err
}

// Leader returns the one running, unpaused server that reports itself leader (or
// standalone), or an error if none or several do (an election in progress).
func (e *Ensemble) Leader(ctx context.Context) (topologies.Node, error) {
	return LeaderOf(ctx, e.servers)
}

// Server is what LeaderOf asks of a server, in a process or a container.
type Server interface {
	topologies.Node
	Running() bool
	Paused() bool
}

// LeaderOf is the one running, unpaused server of servers that reports leader or
// standalone. A paused server is not asked: cut off, it may still believe it leads.
func LeaderOf[S Server](ctx context.Context, servers []S) (topologies.Node, error) {
	var leader topologies.Node
	for _, s := range servers {
		if !s.Running() || s.Paused() {
			continue
		}
		m, err := srvr.Mode(ctx, s.Addr())
		if err != nil || !srvr.Leads(m) {
			continue
		}
		if leader != nil {
			return nil, fmt.Errorf("both %s and %s report leading", leader.Name(), s.Name())
		}
		leader = s
	}
	if leader == nil {
		return nil, errors.New("no running server leads")
	}
	return leader, nil
}

// WaitLeader polls Leader until one server leads or ctx ends.
func (e *Ensemble) WaitLeader(ctx context.Context) (topologies.Node, error) {
	return topologies.PollLeader(ctx, e.Leader)
}

// releasePorts ends the leases pickPorts took (zero ports, never picked, are skipped).
func (e *Ensemble) releasePorts() {
	for _, s := range e.servers {
		for _, p := range []*int{&s.ports.Client, &s.ports.Quorum, &s.ports.Election} {
			if *p != 0 {
				topologies.ReleasePort(*p)
				*p = 0
			}
		}
	}
}
