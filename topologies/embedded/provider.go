// Package embedded runs Redis nodes inside the test process with miniredis, each on its
// own loopback port and each driven by a clock model (Spec.Clocks), so that clock
// sweeps are fast and deterministic with nothing installed. Registered as provider
// "embedded" for the single and redlock kinds: miniredis has no replication, so it
// cannot serve replicated or sentinel deployments.
//
// Verified to run unchanged on it: redsync's lock, extend and unlock scripts and the
// single strategy's SET NX PX and Lua release/extend. Missing compared with Redis:
// replication (WAIT answers 0 at once), persistence (see Restart), and active expiry
// (keys expire lazily, when a command touches them: the same to any client).
package embedded

import (
	"context"
	"fmt"
	"sync"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/topologies"
)

func init() { topologies.RegisterProvider(Provider{}) }

// Provider starts in-process nodes. Clock is the real time the models run against
// (nil: the machine's clock).
type Provider struct {
	Clock clocks.Clock
}

func (Provider) Name() string { return "embedded" }

// Start launches spec's nodes; only Single and Redlock are served.
func (p Provider) Start(ctx context.Context, spec backend.Spec) (topologies.Topology, error) {
	spec = spec.WithDefaults(linked.Catalog())
	if err := spec.Validate(linked.Catalog()); err != nil {
		return nil, err
	}
	if err := topologies.RefuseOtherFlavour("embedded", spec); err != nil {
		return nil, err
	}
	// miniredis speaks Redis and keeps no replicas.
	if !backend.KindIs[backend.RedisProtocol](linked.Catalog(), spec.Kind) ||
		backend.KindIs[backend.Replication](linked.Catalog(), spec.Kind) {
		return nil, fmt.Errorf(
			"provider embedded serves single and redlock topologies, not %s (miniredis has no replication)", spec.Kind)
	}
	clock := p.Clock
	if clock == nil {
		clock = clocks.Real{}
	}
	t := &topology{spec: spec}
	for i := 0; i < spec.Masters; i++ {
		name := fmt.Sprintf("master-%d", i)
		model, skewed := spec.Clocks[name]
		n, err := startNode(name, model, skewed, spec.AppendFsync != "", clock)
		if err != nil {
			t.Close()
			return nil, err
		}
		t.masters = append(t.masters, n)
	}
	return t, nil
}

type topology struct {
	spec      backend.Spec
	masters   []*node
	closeOnce sync.Once
}

func (t *topology) Spec() backend.Spec           { return t.spec }
func (t *topology) Provider() string             { return "embedded" }
func (t *topology) Masters() []topologies.Node   { return asNodes(t.masters) }
func (t *topology) Replicas() []topologies.Node  { return nil }
func (t *topology) Sentinels() []topologies.Node { return nil }
func (t *topology) Nodes() []topologies.Node     { return asNodes(t.masters) }

// Close stops every node. Safe to call twice.
func (t *topology) Close() error {
	t.closeOnce.Do(func() {
		for _, n := range t.masters {
			n.stop()
		}
	})
	return nil
}

func asNodes(ns []*node) []topologies.Node {
	out := make([]topologies.Node, len(ns))
	for i, n := range ns {
		out[i] = n
	}
	return out
}
