// Package redistopo is Redis's process provider: redis-server (and sentinel)
// processes on loopback ports, one supervised ServerNode each, started, broken and
// re-formed in place; it registers as the process family's own provider of Redis's Kinds.
package redistopo

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/clocks/faketime"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/forgetful"
	"github.com/lockbench/lockbench/topologies/redisadmin"
	"github.com/lockbench/lockbench/topologies/supervise"
)

// Process starts every node as a redis-server (or valkey-server) process on 127.0.0.1.
type Process struct {
	// Bin is the server binary; empty means the one of the spec's flavour (FindServer).
	Bin string
	// Env is added to every server's environment (a fake-time preload, say).
	Env []string
}

// Kinds are the deployments the process provider starts, as redis-server nodes.
var Kinds = []backend.Kind{topologies.Single, topologies.Replicated, topologies.Sentinel, topologies.Redlock}

// Name: the process provider serves Redis's Kinds unless told otherwise; it keeps the
// family's own name, which results folders record as their provider.
func (Process) Name() string { return "process" }

// Start launches spec's deployment and returns once it is ready to serve locks.
func (p Process) Start(ctx context.Context, spec backend.Spec) (topologies.Topology, error) {
	spec = spec.WithDefaults(linked.Catalog())
	if err := spec.Validate(linked.Catalog()); err != nil {
		return nil, err
	}
	if !slices.Contains(Kinds, spec.Kind) {
		return nil,
			fmt.Errorf("topology kind %q: the process provider runs redis-server only; %s", spec.Kind,
				topologies.OwnProcessProvider(spec.Kind))
	}
	bin := p.Bin
	if bin == "" {
		var err error
		if bin, err = redisadmin.FindServer(spec.Server); err != nil {
			return nil, err
		}
	}
	dir, err := topologies.NewTempDir("redis")
	if err != nil {
		return nil, err
	}
	t := &processTopology{spec: spec, dir: dir, bin: bin, env: p.Env}
	if err := t.launch(ctx); err != nil {
		t.Close()
		return nil, err
	}
	return t, nil
}

type processTopology struct {
	spec      backend.Spec
	dir       string
	bin       string
	env       []string
	masters   []*processNode
	replicas  []*processNode
	sentinels []*processNode
	closeOnce sync.Once
}

func (t *processTopology) Spec() backend.Spec { return t.spec }
func (t *processTopology) Provider() string   { return "process" }

// Dir is where the topology keeps configs, logs and data; Close removes it.
func (t *processTopology) Dir() string                 { return t.dir }
func (t *processTopology) Masters() []topologies.Node  { return nodes(t.masters) }
func (t *processTopology) Replicas() []topologies.Node { return nodes(t.replicas) }
func (t *processTopology) Sentinels() []topologies.Node {
	return nodes(t.sentinels)
}
func (t *processTopology) Nodes() []topologies.Node {
	all := append(append(append([]*processNode{}, t.masters...), t.replicas...), t.sentinels...)
	return nodes(all)
}

func nodes(ps []*processNode) []topologies.Node {
	out := make([]topologies.Node, len(ps))
	for i, p := range ps {
		out[i] = p
	}
	return out
}

// Close kills every process and removes the topology's dir.
func (t *processTopology) Close() error {
	var err error
	t.closeOnce.Do(func() {
		for _, n := range append(append(append([]*processNode{}, t.sentinels...), t.replicas...), t.masters...) {
			n.stop()
		}
		err = topologies.RemoveTempDir(t.dir)
	})
	return err
}

func (t *processTopology) launch(ctx context.Context) error {
	if err := t.startRole(ctx, &t.masters, topologies.RoleMaster, t.spec.Masters, func(port int) string {
		return t.serverConfig(port, "")
	}); err != nil {
		return err
	}
	if t.spec.Kind != topologies.Replicated && t.spec.Kind != topologies.Sentinel {
		return nil
	}
	master := t.masters[0]
	if err := t.startRole(ctx, &t.replicas, topologies.RoleReplica, t.spec.Replicas, func(port int) string {
		return t.serverConfig(port, master.Addr())
	}); err != nil {
		return err
	}
	if err := redisadmin.WaitReplicasOnline(ctx, master.Addr(), t.spec.Replicas); err != nil {
		return err
	}
	if t.spec.Kind != topologies.Sentinel {
		return nil
	}
	if err := t.startRole(ctx, &t.sentinels, topologies.RoleSentinel, t.spec.Sentinels, func(port int) string {
		return t.sentinelConfig(port, master.Addr())
	}); err != nil {
		return err
	}
	return redisadmin.WaitSentinelsAgree(ctx, t.Sentinels(), t.spec.MasterName, master.Addr(), len(t.replicas))
}

// startRole starts count nodes of role, named after it (master-0, master-1...), adding
// each to nodes as it comes up so that Close stops them should a later one fail.
func (t *processTopology) startRole(ctx context.Context, nodes *[]*processNode, role topologies.Role, count int,
	config func(port int) string) error {
	for i := 0; i < count; i++ {
		n, err := t.startNode(ctx, fmt.Sprintf("%s-%d", role, i), role, config)
		if err != nil {
			return err
		}
		*nodes = append(*nodes, n)
	}
	return nil
}

// startNode makes the node's dir and config and starts it, taking a new free port
// when another program grabbed the one it picked.
func (t *processTopology) startNode(ctx context.Context, name string, role topologies.Role,
	config func(port int) string) (*processNode, error) {
	dir := filepath.Join(t.dir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	// A skewed node runs under libfaketime, driven by its model from now on.
	var skew *faketime.Node
	if m, ok := t.spec.Clocks[name]; ok {
		var err error
		if skew, err = faketime.Start(dir, m, nil); err != nil {
			return nil, fmt.Errorf("%s: clock model: %w", name, err)
		}
	}
	var disk *forgetful.Disk
	if t.spec.ForgetfulDisk && role != topologies.RoleSentinel {
		var err error
		// appendonlydir provisioned: Redis 7.0 makes it without fsyncing its parent (crashfs's tests).
		if disk, err = forgetful.Mount(dir, "appendonlydir"); err != nil {
			skew.Close()
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	var n *processNode
	err := supervise.RetryPorts(5, func() error {
		port, err := topologies.FreePort()
		if err != nil {
			return err
		}
		n = newProcessNode(name, role, t.bin, dir, port, t.env, skew)
		n.disk = disk
		if err := os.WriteFile(n.ConfPath(), []byte(config(port)), 0o644); err != nil {
			topologies.ReleasePort(port)
			return err
		}
		startCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if err := n.start(startCtx); err != nil {
			topologies.ReleasePort(port) // this attempt's server is gone: the port is no use to us
			return err
		}
		return nil
	})
	if err != nil {
		skew.Close()
		_ = disk.Unmount()
		return nil, err
	}
	return n, nil
}

// serverConfig is a redis-server config: loopback only, no persistence unless asked,
// replication that starts streaming at once.
func (t *processTopology) serverConfig(port int, replicaOf string) string {
	lines := append(redisadmin.LoopbackListens(port), redisadmin.RedisDataConfig(t.spec.AppendFsync)...)
	if t.spec.ForgetfulDisk {
		// Redis opens its log relative to dir: the log stays beside the config, off the disk that forgets.
		lines = append(lines, "dir "+forgetful.DataName, "logfile ../server.log")
	}
	if replicaOf != "" {
		host, p, _ := net.SplitHostPort(replicaOf)
		lines = append(lines, fmt.Sprintf("replicaof %s %s", host, p))
	}
	lines = append(lines, t.spec.ExtraConfig...)
	return strings.Join(lines, "\n") + "\n"
}

func (t *processTopology) sentinelConfig(port int, masterAddr string) string {
	host, p, _ := net.SplitHostPort(masterAddr)
	name := t.spec.MasterName
	return strings.Join(append(redisadmin.LoopbackListens(port),
		fmt.Sprintf("sentinel monitor %s %s %s %d", name, host, p, t.spec.SentinelQuorum),
		fmt.Sprintf("sentinel down-after-milliseconds %s %d", name, t.spec.DownAfter.Milliseconds()),
		fmt.Sprintf("sentinel failover-timeout %s %d", name, t.spec.FailoverTimeout.Milliseconds()),
		fmt.Sprintf("sentinel parallel-syncs %s 1", name),
	), "\n") + "\n"
}
