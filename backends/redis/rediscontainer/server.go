package rediscontainer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/clocks/faketime"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/container"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// Node is one redis-server of a deployment whose store joins the nodes itself (a Redis
// Cluster): it runs exactly as a node of the Redis kinds (image, published port,
// mounted data dir, Kill, Pause, Restart, wire rules, cuts).
type Node struct {
	Name string
	Role topologies.Role
	// PeerPorts is how many more ports only the other nodes dial (a cluster bus): leased
	// for the deployment and carried by the wire rules like the client port, never published.
	PeerPorts int
	// Config returns the lines added to the server's config, given its ports (the client
	// port changes when another program took it first).
	Config func(port int, peerPorts []int) []string
}

// AddNodes declares nodes on d, each a redis-server from image with its ports leased,
// and returns them in order; d.Start starts them.
func AddNodes(d *container.Topology, image string, nodes []Node) ([]*container.Server, error) {
	out := make([]*container.Server, 0, len(nodes))
	for _, rn := range nodes {
		ports, err := d.Ports(1 + rn.PeerPorts)
		if err != nil {
			return nil, err
		}
		extra := rn.Config
		s, err := addServer(d, image, rn.Name, rn.Role, ports[0], ports[1:], false, func(s *container.Server) []string {
			lines := dataConfig(d.Spec(), s)
			if extra != nil {
				lines = append(lines, extra(s.Port(), s.PeerPorts())...)
			}
			return lines
		})
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// addServer declares one redis-server (or sentinel) on d: its config is written before
// the first start only, so that what the server rewrites in it (REPLICAOF, a sentinel's
// view) survives a restart, as the process provider's does.
func addServer(d *container.Topology, image, name string, role topologies.Role, port int, peerPorts []int,
	sentinel bool, config func(*container.Server) []string) (*container.Server, error) {
	dir := filepath.Join(d.Dir(), name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var clock *faketime.Node
	if m, ok := d.Spec().Clocks[name]; ok {
		var err error
		if clock, err = faketime.Start(dir, m, nil); err != nil {
			return nil, fmt.Errorf("%s: clock model: %w", name, err)
		}
	}
	return d.AddServer(name, role, port, peerPorts, container.Service{
		Image: image,
		Command: func(s *container.Server) []string {
			cmd := []string{"redis-server", filepath.Join(s.Dir(), "server.conf")}
			if sentinel {
				cmd = append(cmd, "--sentinel")
			}
			return cmd
		},
		// The caller's own ids: what the server writes in the mounted dir stays removable.
		User:  fmt.Sprintf("%d:%d", os.Getuid(), os.Getgid()),
		Clock: clock,
		Prepare: func(_ context.Context, s *container.Server, _ topologies.RestartMode, first bool) error {
			if !first {
				return nil
			}
			return os.WriteFile(filepath.Join(s.Dir(), "server.conf"), []byte(strings.Join(config(s), "\n")+"\n"), 0o644)
		},
		Ready: func(ctx context.Context, s *container.Server) error {
			if err := redisadmin.WaitPing(ctx, s.Addr()); err != nil {
				return fmt.Errorf("%s on %s did not answer: %w", s.Name(), s.Addr(), err)
			}
			if clock == nil {
				return nil
			}
			if err := clock.Calibrate(func() (time.Time, error) { return redisadmin.ServerTime(ctx, s.Addr()) }); err != nil {
				return fmt.Errorf("%s: %w", s.Name(), err)
			}
			return nil
		},
		Forget: func(s *container.Server) error {
			for _, f := range []string{"dump.rdb", "appendonlydir"} {
				if err := os.RemoveAll(filepath.Join(s.Dir(), f)); err != nil {
					return err
				}
			}
			return nil
		},
		Snapshot: func(ctx context.Context, s *container.Server) error { return redisadmin.AdminDo(ctx, s.Addr(), "SAVE") },
	}), nil
}

// listens is how every Redis server and sentinel of a container starts its config:
// every interface of the container, the published port, the log on stdout.
func listens(s *container.Server) []string {
	return []string{"bind 0.0.0.0", "protected-mode no", fmt.Sprintf("port %d", s.Port()), "daemonize no", `logfile ""`,
		"dir " + s.Dir()}
}

// dataConfig listens on every interface of the container, on the published port, and
// announces 127.0.0.1; otherwise as the process provider's config.
func dataConfig(spec backend.Spec, s *container.Server) []string {
	lines := append(listens(s), redisadmin.RedisDataConfig(spec.AppendFsync)...)
	lines = append(lines, "replica-announce-ip 127.0.0.1")
	return append(lines, spec.ExtraConfig...)
}

// sentinelConfig watches master under the spec's name, timers and quorum.
func sentinelConfig(spec backend.Spec, s, master *container.Server) []string {
	name := spec.MasterName
	return append(listens(s),
		"sentinel announce-ip 127.0.0.1",
		fmt.Sprintf("sentinel monitor %s 127.0.0.1 %d %d", name, master.Port(), spec.SentinelQuorum),
		fmt.Sprintf("sentinel down-after-milliseconds %s %d", name, spec.DownAfter.Milliseconds()),
		fmt.Sprintf("sentinel failover-timeout %s %d", name, spec.FailoverTimeout.Milliseconds()),
		fmt.Sprintf("sentinel parallel-syncs %s 1", name),
	)
}
