package container

import (
	"context"
	"fmt"
	"maps"
	"net/netip"
	"strconv"
	"strings"
	"time"

	mobycontainer "github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/network"
	"github.com/testcontainers/testcontainers-go"
	tclog "github.com/testcontainers/testcontainers-go/log"

	"github.com/lockbench/lockbench/clocks/faketime"
	"github.com/lockbench/lockbench/topologies"
)

// Service is what a server runs in its container, filled by its store's recipe.
type Service struct {
	Image   string
	Command func(s *Server) []string // entrypoint and arguments, paths as on the host
	Env     map[string]string
	// Clock, when set, runs the server on a model clock (libfaketime inside the image):
	// its variables join Env, and it is closed with the deployment.
	Clock  *faketime.Node
	User   string   // uid:gid inside the container
	Mounts []string // host paths mounted read-only at the same path (the JRE, this program)
	// Ready returns once the server serves, with the same check as its process provider.
	Ready func(ctx context.Context, s *Server) error
	// Prepare runs before every start and restart (writes the config the start reads).
	Prepare func(ctx context.Context, s *Server, mode topologies.RestartMode, first bool) error
	// Forget removes the server's data for RestartEmpty.
	Forget func(s *Server) error
	// Snapshot, when set, makes a running server persist before RestartWithSnapshot.
	Snapshot func(ctx context.Context, s *Server) error
}

// startService creates and starts n's container, publishing its first port on
// 127.0.0.1 (the node dir is mounted read-write at the same path); when another program
// took that port between the pick and the publish, it picks another.
func (t *topology) startService(ctx context.Context, n *Server) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if attempt > 0 {
			if n.port, err = t.leasePort(); err != nil { // a lease is no other node's port
				return err
			}
		}
		if err = n.svc.Prepare(ctx, n, topologies.RestartFromDisk, true); err != nil {
			return err
		}
		if err = t.runService(ctx, n); err == nil {
			return n.started(ctx)
		}
		if !strings.Contains(err.Error(), "already allocated") && !strings.Contains(err.Error(), "address already in use") {
			return err
		}
	}
	return err
}

// runService creates and starts n's container through testcontainers.
func (t *topology) runService(ctx context.Context, n *Server) error {
	port := network.MustParsePort(strconv.Itoa(n.port) + "/tcp")
	labels := ownerLabels()
	labels["org.lockbench.node"] = n.name
	command := n.svc.Command(n)
	env := maps.Clone(n.svc.Env)
	if n.skew != nil {
		if env == nil {
			env = map[string]string{}
		}
		for _, kv := range n.skew.Env() {
			k, v, _ := strings.Cut(kv, "=")
			env[k] = v
		}
	}
	req := testcontainers.GenericContainerRequest{
		Started: true,
		Logger:  tclog.NewNoopLogger(),
		ContainerRequest: testcontainers.ContainerRequest{
			Image:        n.svc.Image,
			Name:         t.containerName(n.name),
			Entrypoint:   command[:1],
			Cmd:          command[1:],
			Env:          env,
			Labels:       labels,
			ExposedPorts: []string{port.String()},
			Networks:     []string{t.netName},
			ConfigModifier: func(c *mobycontainer.Config) {
				c.User = n.svc.User
				c.WorkingDir = n.dir
			},
			HostConfigModifier: func(hc *mobycontainer.HostConfig) {
				hc.PortBindings = network.PortMap{port: {{HostIP: netip.MustParseAddr("127.0.0.1"),
					HostPort: strconv.Itoa(n.port)}}}
				hc.Binds = append(hc.Binds, n.dir+":"+n.dir)
				for _, p := range n.svc.Mounts {
					hc.Binds = append(hc.Binds, p+":"+p+":ro")
				}
				hc.Sysctls = map[string]string{"net.ipv4.conf.all.route_localnet": "1"}
			},
		},
	}
	c, err := testcontainers.GenericContainer(ctx, req)
	id := ""
	if c != nil {
		id = c.GetContainerID()
	}
	if id != "" {
		t.track(id)
	}
	if err != nil {
		if id != "" {
			_ = removeAll(t.cli, []string{id}, "")
		}
		return fmt.Errorf("%s: container from %s: %w", n.name, n.svc.Image, err)
	}
	n.id = id
	return nil
}

// startServices starts ns in parallel: members of a cluster serve only once a quorum runs.
func (t *topology) startServices(ctx context.Context, ns []*Server) error {
	errs := make(chan error, len(ns))
	for _, n := range ns {
		go func() { errs <- t.startService(ctx, n) }()
	}
	var first error
	for range ns {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// restartService kills n if it runs, forgets its data when asked, and starts the same
// container again (same published port, a new namespace: started rewires it).
func (n *Server) restartService(ctx context.Context, mode topologies.RestartMode, running bool) error {
	if mode == topologies.RestartWithSnapshot && running && !n.paused && n.svc.Snapshot != nil {
		if err := n.svc.Snapshot(ctx, n); err != nil {
			return fmt.Errorf("%s: snapshot before restart: %w", n.name, err)
		}
	}
	if running {
		if err := n.killLocked(); err != nil {
			return err
		}
	}
	if mode == topologies.RestartEmpty {
		if err := n.svc.Forget(n); err != nil {
			return fmt.Errorf("%s: forget data: %w", n.name, err)
		}
	}
	if err := n.svc.Prepare(ctx, n, mode, false); err != nil {
		return err
	}
	if n.skew != nil {
		n.skew.Env() // rebases the rate on the new process; the container keeps its variables
	}
	return n.startAgain(ctx, 60*time.Second)
}
