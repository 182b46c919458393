// Package container runs a store's topology with one container per server, on a network
// made for the run, through the engine a program links (topologies/container/docker:
// the Docker Engine API and testcontainers-go): provider "container". Each store renders
// its servers in a recipe registered from its own folder (RegisterRecipe). Nodes are
// published on 127.0.0.1 only; Kill, Pause (the engine's freezer), Resume and Restart
// act on the containers; partitions cut links with packet filter rules inside the
// containers' namespaces. Everything it creates is labelled, removed by Close and on
// SIGINT/SIGTERM, and swept at the next start when its owner died.
package container

import (
	"context"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
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

// Start creates spec's deployment with its store's recipe and returns once it serves.
func (Provider) Start(ctx context.Context, spec backend.Spec) (topologies.Topology, error) {
	spec = spec.WithDefaults(linked.Catalog())
	if err := spec.Validate(linked.Catalog()); err != nil {
		return nil, err
	}
	if err := topologies.RefuseOtherFlavour("container", spec); err != nil {
		return nil, err
	}
	r, ok := recipeFor(spec.Kind)
	if !ok {
		return nil, fmt.Errorf("provider container: topology kind %q is not served in containers", spec.Kind)
	}
	if len(spec.Clocks) > 0 && !r.clocked {
		return nil, fmt.Errorf("provider container: clocks: %s nodes in containers run on true time", spec.Kind)
	}
	return Deploy(ctx, spec, r.recipe)
}

func (t *topology) networkID() string {
	t.idsMu.Lock()
	defer t.idsMu.Unlock()
	return t.netID
}

// createNetwork makes the run's own bridge network, labelled for the sweep.
func (t *topology) createNetwork(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute) // a busy engine, as removeBudget says
	defer cancel()
	id, err := t.eng.CreateNetwork(ctx, t.netName, ownerLabels())
	if err != nil {
		return fmt.Errorf("provider container: create network %s: %w", t.netName, err)
	}
	t.idsMu.Lock()
	t.netID = id
	t.idsMu.Unlock()
	return nil
}

// containerName is unique per program, topology and node, and says whose it is.
func (t *topology) containerName(node string) string {
	return t.netName + "-" + node + "-" + strconv.FormatInt(time.Now().UnixNano()%100000, 10)
}

// Serves reports whether the provider runs kind in containers: every kind a store
// registered a recipe for.
func (Provider) Serves(kind backend.Kind) bool {
	_, ok := recipeFor(kind)
	return ok
}
