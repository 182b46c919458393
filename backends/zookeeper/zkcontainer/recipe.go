// Package zkcontainer runs ZooKeeper with the container provider: each server the host's
// JVM and jars (mounted read-only) in a container of its own, with the process
// provider's config but listening on the container's interfaces (Start, the recipe
// zkstore registers with topologies/container).
package zkcontainer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/lockbench/lockbench/backends/zookeeper"
	"github.com/lockbench/lockbench/backends/zookeeper/zktopo"
	"github.com/lockbench/lockbench/backends/zookeeper/zktopo/srvr"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/container"
)

// ensemble is a ZooKeeper ensemble in containers, with the methods of zktopo's Ensemble
// that the strategies and the safety lab ask for.
type ensemble struct {
	*container.Topology
	install zookeeper.Install
}

// Servers are the client addresses, the connect string's parts.
func (e *ensemble) Servers() []string { return topologies.Addrs(e.Nodes()) }

// TickTime and the session bounds are the process provider's.
func (e *ensemble) TickTime() time.Duration          { return zktopo.DefaultTickTime }
func (e *ensemble) MinSessionTimeout() time.Duration { return 2 * zktopo.DefaultTickTime }
func (e *ensemble) MaxSessionTimeout() time.Duration { return zktopo.MaxSessionTimeout }

// Start starts every server's container together and returns once each answers srvr
// with a mode and one leads: zktopo's checks.
func Start(ctx context.Context, d *container.Topology) (topologies.Topology, error) {
	install, err := zookeeper.Find()
	if err != nil {
		return nil, err
	}
	image, mounts,
		err := container.OnceImage("zookeeper", func() (string, []string, error) { return buildImage(ctx, d, install) })
	if err != nil {
		return nil, err
	}
	// /usr/bin/java is a chain of symlinks outside the mounts: run the real one.
	if install.Java, err = filepath.EvalSymlinks(install.Java); err != nil {
		return nil, err
	}
	e := &ensemble{Topology: d, install: install}
	members := d.Spec().Members
	ports, err := d.Ports(3 * members)
	if err != nil {
		return nil, err
	}
	var all []zktopo.Ports
	if members > 1 {
		for i := 0; i < members; i++ {
			all = append(all, zktopo.Ports{Client: ports[3*i], Quorum: ports[3*i+1], Election: ports[3*i+2]})
		}
	}
	for i := 0; i < members; i++ {
		id := i + 1
		name := fmt.Sprintf("server-%d", i)
		config := func(s *container.Server) zktopo.ServerConfig {
			// The client port is the one published now (another program may have taken the first).
			return zktopo.ServerConfig{ID: id, Dir: s.Dir(), Tick: zktopo.DefaultTickTime, Port: s.Port(),
				Ensemble: all, NoFsync: d.Spec().UnsafeNoFsync, AllInterfaces: true}
		}
		d.AddServer(name, topologies.RoleMember, ports[3*i], ports[3*i+1:3*i+3], container.Service{
			Image: image,
			Command: func(s *container.Server) []string {
				return append([]string{install.Java}, config(s).JavaArgs(install)...)
			},
			User:   fmt.Sprintf("%d:%d", os.Getuid(), os.Getgid()),
			Mounts: mounts,
			Ready:  waitServing,
			Prepare: func(_ context.Context, s *container.Server, _ topologies.RestartMode, _ bool) error {
				return config(s).Write()
			},
			Forget: func(s *container.Server) error { return os.RemoveAll(config(s).DataDir()) },
		})
	}
	if err := d.Start(ctx); err != nil {
		return nil, err
	}
	wctx, cancel := context.WithTimeout(ctx, 2*time.Minute) // an election among loaded JVMs
	defer cancel()
	if _, err := e.WaitLeader(wctx); err != nil {
		return nil, err
	}
	return e, nil
}

// waitServing polls srvr on the published client port until the server reports a mode:
// three minutes, as a JVM started in a container on a loaded 2-core machine may need.
func waitServing(ctx context.Context, s *container.Server) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	var asker srvr.Patient
	for {
		_, err := asker.Mode(ctx, s.Addr())
		if err == nil {
			return nil
		}
		if s.Exited() {
			return fmt.Errorf("%s exited; log: %s %s", s.Name(), s.Log(), s.FileLog("server.log"))
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s on %s not serving: %v; log: %s", s.Name(), s.Addr(), err, s.FileLog("server.log"))
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Leader is the one running, unpaused server that reports leader or standalone.
func (e *ensemble) Leader(ctx context.Context) (topologies.Node, error) {
	return zktopo.LeaderOf(ctx, e.Topology.Servers())
}

// WaitLeader polls Leader until one server leads or ctx ends.
func (e *ensemble) WaitLeader(ctx context.Context) (topologies.Node, error) {
	return topologies.PollLeader(ctx, e.Leader)
}
