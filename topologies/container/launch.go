package container

import (
	"context"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	mobycontainer "github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/network"
	"github.com/testcontainers/testcontainers-go"
	tclog "github.com/testcontainers/testcontainers-go/log"
	"github.com/testcontainers/testcontainers-go/wait"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/clocks/faketime"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// launch starts masters and replicas together, attaches the replicas, then starts the
// sentinels together: the same deployment, in the same order, as the process provider.
func (t *topology) launch(ctx context.Context) error {
	if err := t.createNetwork(ctx); err != nil {
		return err
	}
	for i := 0; i < t.spec.Masters; i++ {
		t.masters = append(t.masters, t.newNode(fmt.Sprintf("master-%d", i), topologies.RoleMaster))
	}
	if backend.Has(t.spec.Kind, backend.Replication) {
		for i := 0; i < t.spec.Replicas; i++ {
			t.replicas = append(t.replicas, t.newNode(fmt.Sprintf("replica-%d", i), topologies.RoleReplica))
		}
	}
	data := append(append([]*node{}, t.masters...), t.replicas...)
	if err := t.startAll(ctx, data, t.serverConfig); err != nil {
		return err
	}
	if len(t.replicas) == 0 {
		return nil
	}
	master := t.masters[0]
	for _, r := range t.replicas {
		// Attached after start, once the rules carry 127.0.0.1:port to the master; the
		// rewritten config makes a restarted replica rejoin it, as the process provider's does.
		if err := redisadmin.AdminDo(ctx, r.Addr(), "REPLICAOF", "127.0.0.1", strconv.Itoa(master.port)); err != nil {
			return fmt.Errorf("%s: replicaof %s: %w", r.name, master.Addr(), err)
		}
		if err := redisadmin.AdminDo(ctx, r.Addr(), "CONFIG", "REWRITE"); err != nil {
			return fmt.Errorf("%s: config rewrite: %w", r.name, err)
		}
	}
	if err := redisadmin.WaitReplicasOnline(ctx, master.Addr(), len(t.replicas)); err != nil {
		return err
	}
	if !backend.Has(t.spec.Kind, backend.Failover) { // no sentinels to start
		return nil
	}
	for i := 0; i < t.spec.Sentinels; i++ {
		s := t.newNode(fmt.Sprintf("sentinel-%d", i), topologies.RoleSentinel)
		s.sentinel = true
		t.sentinels = append(t.sentinels, s)
	}
	if err := t.startAll(ctx, t.sentinels, func(n *node) string { return t.sentinelConfig(n, master) }); err != nil {
		return err
	}
	return redisadmin.WaitSentinelsAgree(ctx, asNodes(t.sentinels), t.spec.MasterName, master.Addr(), len(t.replicas))
}

func (t *topology) newNode(name string, role topologies.Role) *node {
	return &node{topo: t, name: name, role: role, dir: filepath.Join(t.dir, name)}
}

// startAll creates and starts the nodes' containers in parallel.
func (t *topology) startAll(ctx context.Context, ns []*node, config func(*node) string) error {
	errs := make([]error, len(ns))
	var wg sync.WaitGroup
	for i, n := range ns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = t.create(ctx, n, config)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// create makes n's dir, config and container, taking a new port when another program
// took the one it picked between the pick and the publish.
func (t *topology) create(ctx context.Context, n *node, config func(*node) string) error {
	if err := os.MkdirAll(n.dir, 0o755); err != nil {
		return err
	}
	if m, ok := t.spec.Clocks[n.name]; ok {
		var err error
		if n.skew, err = faketime.Start(n.dir, m, nil); err != nil {
			return fmt.Errorf("%s: clock model: %w", n.name, err)
		}
	}
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		port, err := t.leasePort()
		if err != nil {
			return err
		}
		n.port = port
		if err := os.WriteFile(filepath.Join(n.dir, "server.conf"), []byte(config(n)), 0o644); err != nil {
			return err
		}
		err = t.run(ctx, n)
		if err == nil {
			return n.started(ctx)
		}
		lastErr = err
		if !strings.Contains(err.Error(), "already allocated") && !strings.Contains(err.Error(), "address already in use") {
			break
		}
	}
	return lastErr
}

// run creates and starts n's container through testcontainers and waits for the server's
// ready line (the image has no tools for other checks).
func (t *topology) run(ctx context.Context, n *node) error {
	env := map[string]string{}
	if n.skew != nil {
		for _, kv := range n.skew.Env() {
			k, v, _ := strings.Cut(kv, "=")
			env[k] = v
		}
	}
	port := network.MustParsePort(strconv.Itoa(n.port) + "/tcp")
	cmd := []string{filepath.Join(n.dir, "server.conf")}
	if n.sentinel {
		cmd = append(cmd, "--sentinel")
	}
	ready := "Ready to accept connections"
	if n.sentinel {
		ready = "+monitor master" // a sentinel logs no ready line; it monitors once it listens
	}
	labels := ownerLabels()
	labels["org.lockbench.node"] = n.name
	req := testcontainers.GenericContainerRequest{
		Started: true,
		Logger:  tclog.NewNoopLogger(),
		ContainerRequest: testcontainers.ContainerRequest{
			Image:        t.image,
			Name:         t.containerName(n.name),
			Entrypoint:   []string{"redis-server"},
			Cmd:          cmd,
			Env:          env,
			Labels:       labels,
			ExposedPorts: []string{port.String()},
			Networks:     []string{t.netName},
			WaitingFor:   wait.ForLog(ready).WithStartupTimeout(30 * time.Second).WithPollInterval(20 * time.Millisecond),
			// The caller's own ids: what the server writes in the mounted dir stays removable.
			ConfigModifier: func(c *mobycontainer.Config) { c.User = fmt.Sprintf("%d:%d", os.Getuid(), os.Getgid()) },
			HostConfigModifier: func(hc *mobycontainer.HostConfig) {
				hc.PortBindings = network.PortMap{port: {{HostIP: netip.MustParseAddr("127.0.0.1"), HostPort: strconv.Itoa(n.port)}}}
				hc.Binds = append(hc.Binds, n.dir+":"+n.dir)
				// Lets a loopback connection be carried to another container (see wire.go).
				hc.Sysctls = map[string]string{"net.ipv4.conf.all.route_localnet": "1"}
			},
		},
	}
	c, err := testcontainers.GenericContainer(ctx, req)
	if c != nil {
		if id := c.GetContainerID(); id != "" {
			n.id = id
			t.track(id)
		}
	}
	if err != nil {
		if n.id != "" {
			_ = removeAll(t.cli, []string{n.id}, "")
			n.id = ""
		}
		return fmt.Errorf("%s: container from %s: %w", n.name, t.image, err)
	}
	return nil
}

// containerListens is how every Redis server and sentinel of a container starts its
// config: every interface of the container, the published port, the log on stdout.
func containerListens(n *node) []string {
	return []string{"bind 0.0.0.0", "protected-mode no", fmt.Sprintf("port %d", n.port), "daemonize no", `logfile ""`, "dir " + n.dir}
}

// serverConfig listens on every interface of the container, on the published port, and
// announces 127.0.0.1; otherwise as the process provider's config.
func (t *topology) serverConfig(n *node) string {
	lines := append(containerListens(n), redisadmin.RedisDataConfig(t.spec.AppendFsync)...)
	lines = append(lines, "replica-announce-ip 127.0.0.1")
	lines = append(lines, t.spec.ExtraConfig...)
	return strings.Join(lines, "\n") + "\n"
}

func (t *topology) sentinelConfig(n, master *node) string {
	name := t.spec.MasterName
	return strings.Join(append(containerListens(n),
		"sentinel announce-ip 127.0.0.1",
		fmt.Sprintf("sentinel monitor %s 127.0.0.1 %d %d", name, master.port, t.spec.SentinelQuorum),
		fmt.Sprintf("sentinel down-after-milliseconds %s %d", name, t.spec.DownAfter.Milliseconds()),
		fmt.Sprintf("sentinel failover-timeout %s %d", name, t.spec.FailoverTimeout.Milliseconds()),
		fmt.Sprintf("sentinel parallel-syncs %s 1", name),
	), "\n") + "\n"
}
