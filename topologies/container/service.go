package container

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"time"

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

// runService creates and starts n's container through the engine.
func (t *topology) runService(ctx context.Context, n *Server) error {
	labels := ownerLabels()
	labels["org.lockbench.node"] = n.name
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
	binds := []string{n.dir + ":" + n.dir}
	for _, p := range n.svc.Mounts {
		binds = append(binds, p+":"+p+":ro")
	}
	id, err := t.eng.Run(ctx, RunSpec{
		Name: t.containerName(n.name), Image: n.svc.Image, Network: t.netName, User: n.svc.User, WorkDir: n.dir,
		Command: n.svc.Command(n), Env: env, Labels: labels, Port: n.port, Binds: binds,
		Sysctls: map[string]string{"net.ipv4.conf.all.route_localnet": "1"},
	})
	if id != "" {
		t.track(id)
	}
	if err != nil {
		if id != "" {
			_ = removeAll(t.eng, []string{id}, "")
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
	return n.startAgain(ctx, restartBudget)
}

// restartBudget bounds a restart's engine calls and its wait for the server: a busy
// machine's engine once took over a minute to start a stopped container.
const restartBudget = 3 * time.Minute
