// Package container runs lockbench's Redis topologies with one container per node, on a
// network made for the run, through testcontainers-go: provider "container". Nodes are
// published on 127.0.0.1 only; Kill, Pause (the engine's freezer), Resume and Restart
// act on the containers; partitions cut links with packet filter rules inside the
// containers' namespaces. Everything it creates is labelled, removed by Close and on
// SIGINT/SIGTERM, and swept at the next start when its owner died.
package container

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/moby/moby/client"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/topologies"
)

func init() { topologies.RegisterProvider(Provider{}) }

// Provider starts topologies as containers.
type Provider struct{}

func (Provider) Name() string { return "container" }

// Available returns nil when the container engine answers, else what to install or start.
func (Provider) Available(ctx context.Context) error {
	_, err := engine(ctx)
	return err
}

// runSeq tells apart the networks and containers of topologies started by one program.
var runSeq atomic.Int64

// Start creates spec's deployment and returns once it serves locks.
func (Provider) Start(ctx context.Context, spec topologies.Spec) (topologies.Topology, error) {
	spec = spec.WithDefaults()
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	if recipe, ok := recipeFor(spec.Kind); ok {
		return startStore(ctx, spec, recipe)
	}
	if !(Provider{}).Serves(spec.Kind) {
		return nil, fmt.Errorf("provider container: topology kind %q is not served in containers", spec.Kind)
	}
	t, err := newRedisTopology(ctx, spec)
	if err != nil {
		return nil, err
	}
	if err := t.launch(ctx); err != nil {
		t.Close()
		return nil, err
	}
	return t, nil
}

// newRedisTopology is a Redis deployment with no node yet: the engine answers, what a
// dead owner left is swept, the image is resolved, and the reaper knows the topology.
func newRedisTopology(ctx context.Context, spec topologies.Spec) (*topology, error) {
	cli, err := engine(ctx)
	if err != nil {
		return nil, err
	}
	sweepOrphans(ctx, cli) // what a SIGKILLed run left: its owner can no longer remove it
	image, err := redisImage(ctx, cli, askedImage(), len(spec.Clocks) > 0)
	if err != nil {
		return nil, fmt.Errorf("provider container: %w", err)
	}
	if len(spec.Clocks) > 0 && !hasFaketime(ctx, cli, image) {
		return nil, fmt.Errorf("provider container: clocks: image %s has no libfaketime; clock faults need the image built from the host (%s=%s, with faketime and gcc installed)", image, ImageEnv, HostImage)
	}
	dir, err := topologies.NewTempDir("container")
	if err != nil {
		return nil, err
	}
	t := &topology{spec: spec, cli: cli, image: image, dir: dir, cuts: map[[2]string]bool{}, hooked: map[*node]bool{}}
	t.netName = fmt.Sprintf("lockbench-%d-%d", os.Getpid(), runSeq.Add(1))
	// The reaper removes what exists at the signal, containers first.
	t.forget = topologies.OnReap(func() { _ = removeAll(cli, t.trackedIDs(), t.networkID()) })
	return t, nil
}

func (t *topology) networkID() string {
	t.idsMu.Lock()
	defer t.idsMu.Unlock()
	return t.netID
}

// createNetwork makes the run's own bridge network, labelled for the sweep.
func (t *topology) createNetwork(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	res, err := t.cli.NetworkCreate(ctx, t.netName, client.NetworkCreateOptions{Driver: "bridge", Labels: ownerLabels()})
	if err != nil {
		return fmt.Errorf("provider container: create network %s: %w", t.netName, err)
	}
	t.idsMu.Lock()
	t.netID = res.ID
	t.idsMu.Unlock()
	return nil
}

// containerName is unique per program, topology and node, and says whose it is.
func (t *topology) containerName(node string) string {
	return t.netName + "-" + node + "-" + strconv.FormatInt(time.Now().UnixNano()%100000, 10)
}

// Serves reports whether the provider runs kind in containers: the kinds of Redis
// masters it launches itself, and every kind a store registered a recipe for.
func (Provider) Serves(kind topologies.Kind) bool {
	if backend.Has(kind, backend.RedisProtocol) {
		return true
	}
	_, ok := recipeFor(kind)
	return ok
}
