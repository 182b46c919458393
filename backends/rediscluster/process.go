package rediscluster

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
	"github.com/lockbench/lockbench/topologies/supervise"
)

// ProviderName is the process provider's name; --provider process picks it for clusters.
const ProviderName = "rediscluster-process"

// Process starts a cluster's nodes as redis-server processes on 127.0.0.1.
type Process struct {
	Bin string // the server binary; empty means the spec's flavour's (redisadmin.FindServer)
}

func (Process) Name() string { return ProviderName }

// Start launches spec's cluster and returns once every slot is served and every
// replica streams from its master.
func (p Process) Start(ctx context.Context, spec backend.Spec) (topologies.Topology, error) {
	spec, err := CheckSpec(ProviderName, spec)
	if err != nil {
		return nil, err
	}
	bin := p.Bin
	if bin == "" {
		if bin, err = redisadmin.FindServer(spec.Server); err != nil {
			return nil, err
		}
	}
	dir, err := topologies.NewTempDir("cluster")
	if err != nil {
		return nil, err
	}
	var started []*node
	stop := func() error {
		for _, n := range started {
			n.stop()
		}
		return topologies.RemoveTempDir(dir)
	}
	var layout Layout
	for _, m := range Names(spec) {
		n, err := startNode(ctx, spec, dir, bin, m.Name, m.Role)
		if err != nil {
			stop()
			return nil, err
		}
		started = append(started, n)
		member := Member{Node: n, Bus: n.busPort, Follows: m.Follows}
		if m.Role == topologies.RoleMaster {
			layout.Masters = append(layout.Masters, member)
		} else {
			layout.Replicas = append(layout.Replicas, member)
		}
	}
	return Assemble(ctx, spec, ProviderName, dir, layout, stop)
}

// CheckSpec is spec with its defaults, refused unless it is a valid cluster spec.
func CheckSpec(provider string, spec backend.Spec) (backend.Spec, error) {
	spec = spec.WithDefaults(linked.Catalog())
	if spec.Kind != Kind {
		return spec, fmt.Errorf("provider %s starts %s topologies only, not %q", provider, Kind, spec.Kind)
	}
	return spec, spec.Validate(linked.Catalog())
}

// NodeName is one node a cluster spec asks for, in start order: masters, then replicas.
type NodeName struct {
	Name    string
	Role    topologies.Role
	Follows int // the master a replica follows at start; -1 for a master
}

// Names are spec's nodes: master-i, then replica-i-j following master-i.
func Names(spec backend.Spec) []NodeName {
	var out []NodeName
	for i := 0; i < spec.Masters; i++ {
		out = append(out, NodeName{fmt.Sprintf("master-%d", i), topologies.RoleMaster, -1})
	}
	for i := 0; i < spec.Masters; i++ {
		for j := 0; j < spec.Replicas; j++ {
			out = append(out, NodeName{fmt.Sprintf("replica-%d-%d", i, j), topologies.RoleReplica, i})
		}
	}
	return out
}

// startNode leases a client and a bus port and starts the node, on new ports when a
// program outside lockbench bound one first.
func startNode(ctx context.Context, spec backend.Spec, clusterDir, bin, name string,
	role topologies.Role) (*node, error) {
	dir := filepath.Join(clusterDir, name)
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
		n = newNode(bin, name, role, dir, port, bus)
		if err := os.WriteFile(n.ConfPath(), []byte(n.config(spec)), 0o644); err != nil {
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
